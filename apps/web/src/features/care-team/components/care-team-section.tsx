import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Image, Radio, Stack, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import type { CareTeamAccess } from '@dental/contracts';
import { ConfirmModal } from '#web/components/confirm-modal';
import { Section } from '#web/components/section';
import { errorMessage } from '#web/lib/api-client';
import { dateFormat } from '#web/lib/dates';
import {
  useCareTeamAccess,
  useShareWithPractice,
  useShareableItems,
  useStopSharing,
} from '../api/care-team';

const plural = (count: number, word: string) => `${String(count)} ${word}${count === 1 ? '' : 's'}`;

/** What the practice can see now, in a sentence. */
function describeAccess(access: CareTeamAccess): string {
  if (access.scope === null) {
    return 'Your dental practice sees only your answers for the consultations you book.';
  }
  if (access.scope === 'all')
    return 'Your dental practice sees all your photos, X-rays and records.';
  const photos =
    access.photos.length === 1
      ? '1 chosen photo or X-ray'
      : `${String(access.photos.length)} chosen photos or X-rays`;
  return `Your dental practice sees ${photos} and ${plural(access.records.length, 'chosen record')}.`;
}

function toggle(list: string[], id: string, on: boolean): string[] {
  return on ? [...list, id] : list.filter((item) => item !== id);
}

/** The choice of what to share: all, or checkboxes over the member's photos and records. */
function ShareForm({ access, onDone }: { access: CareTeamAccess; onDone: () => void }) {
  const [mode, setMode] = useState<'all' | 'chosen'>(access.scope === 'chosen' ? 'chosen' : 'all');
  const [photos, setPhotos] = useState(access.photos);
  const [records, setRecords] = useState(access.records);
  const items = useShareableItems(mode === 'chosen');
  const share = useShareWithPractice();
  const submit = () => {
    share.mutate(mode === 'all' ? { scope: 'all' } : { photos, records }, { onSuccess: onDone });
  };
  return (
    <Stack gap="sm">
      <Radio.Group
        label="What to share"
        value={mode}
        onChange={(value) => {
          setMode(value === 'chosen' ? 'chosen' : 'all');
        }}
      >
        <Stack gap="xs" mt="xs">
          <Radio value="all" label="All my photos, X-rays and records, including later ones" />
          <Radio value="chosen" label="Only the ones I choose" />
        </Stack>
      </Radio.Group>
      {mode === 'chosen' && items.isPending && <Text>Loading your photos and records…</Text>}
      {mode === 'chosen' && items.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(items.error)}
        </Alert>
      )}
      {mode === 'chosen' && items.data && (
        <>
          <Title order={3} size="h5">
            Photos and X-rays
          </Title>
          {items.data.photos.length === 0 && <Text>You have no photos or X-rays yet.</Text>}
          {items.data.photos.map((photo) => (
            <Checkbox
              key={photo.id}
              checked={photos.includes(photo.id)}
              onChange={(event) => {
                setPhotos(toggle(photos, photo.id, event.currentTarget.checked));
              }}
              label={
                <Group gap="sm" wrap="nowrap">
                  <Image src={photo.thumbnail_link} alt="" w={48} h={48} radius="sm" />
                  <Text>
                    {photo.photo_type} of {dayjs(photo.shoot_date).format(dateFormat)}
                  </Text>
                </Group>
              }
            />
          ))}
          <Title order={3} size="h5">
            Records
          </Title>
          {items.data.records.length === 0 && <Text>You have no records yet.</Text>}
          {items.data.records.map((record) => (
            <Checkbox
              key={record.id}
              checked={records.includes(record.id)}
              onChange={(event) => {
                setRecords(toggle(records, record.id, event.currentTarget.checked));
              }}
              label={`${record.title}, ${dayjs(record.record_date).format(dateFormat)}`}
              styles={{ label: { overflowWrap: 'anywhere' } }}
            />
          ))}
        </>
      )}
      {share.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(share.error)}
        </Alert>
      )}
      <Group>
        <Button
          onClick={submit}
          loading={share.isPending}
          disabled={mode === 'chosen' && photos.length + records.length === 0}
        >
          Share
        </Button>
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

/** 'Share with my dental practice' (docs/product/care-team-sharing.md): what the practice sees,
 *  a choice of all or chosen items, and stopping (asked first). */
export function CareTeamSection() {
  const access = useCareTeamAccess();
  const stop = useStopSharing();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  return (
    <Section title="Share with my dental practice">
      {access.isPending && <Text>Loading…</Text>}
      {access.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(access.error)}
        </Alert>
      )}
      {access.data && (
        <Stack gap="sm">
          <Text role="status">{describeAccess(access.data)}</Text>
          {editing ? (
            <ShareForm
              access={access.data}
              onDone={() => {
                setEditing(false);
              }}
            />
          ) : (
            <Group>
              <Button
                variant="outline"
                onClick={() => {
                  setEditing(true);
                }}
              >
                {access.data.scope === null ? 'Choose what to share' : 'Change what I share'}
              </Button>
              {access.data.scope !== null && (
                <Button
                  variant="outline"
                  color="red"
                  onClick={() => {
                    setConfirming(true);
                  }}
                >
                  Stop sharing
                </Button>
              )}
            </Group>
          )}
          {stop.isError && (
            <Alert color="red" variant="outline">
              {errorMessage(stop.error)}
            </Alert>
          )}
        </Stack>
      )}
      <ConfirmModal
        opened={confirming}
        onClose={() => {
          setConfirming(false);
        }}
        title="Stop sharing with your dental practice?"
        confirmLabel="Stop sharing"
        confirmColor="red"
        onConfirm={async () => {
          await stop.mutateAsync();
          setConfirming(false);
        }}
      >
        <Text>The practice will no longer see any of your photos, X-rays or records.</Text>
      </ConfirmModal>
    </Section>
  );
}
