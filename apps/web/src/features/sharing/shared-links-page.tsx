import { useState } from 'react';
import { Alert, Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import type { ShareLink } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { CardList } from '#web/components/card-list';
import { ConfirmModal } from '#web/components/confirm-modal';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { errorMessage } from '#web/lib/api-client';
import { dateFormat } from '#web/lib/dates';
import { useDocumentTitle } from '#web/lib/document-title';
import { useRevokeShareLink, useShareLinks } from '#web/lib/share-links';
import classes from './shared-links-page.module.css';

const when = (at: string) => dayjs(at).format(`${dateFormat} HH:mm`);

/** Dark shades: lighter ones fall short of the contrast ratio in small text (axe). */
const stateBadges = {
  active: { label: 'Active', color: 'teal.9' },
  expired: { label: 'Expired', color: 'gray.8' },
  revoked: { label: 'Revoked', color: 'red.9' },
} as const;

function countText(count: number, one: string, many: string) {
  return count === 1 ? `1 ${one}` : `${count} ${many}`;
}

/** What a link shows, in words ('2 photos or X-rays and 1 record'). */
export function sharedContents(
  link: Pick<ShareLink, 'photo_count' | 'record_count' | 'dental_ai_count' | 'report_count'>,
): string {
  const parts = [
    link.photo_count > 0 && countText(link.photo_count, 'photo or X-ray', 'photos or X-rays'),
    link.record_count > 0 && countText(link.record_count, 'record', 'records'),
    link.dental_ai_count > 0 &&
      countText(link.dental_ai_count, 'Dental AI result', 'Dental AI results'),
    link.report_count > 0 && countText(link.report_count, 'report', 'reports'),
  ].filter((part) => part !== false);
  return parts.length === 0 ? 'Nothing left to show' : parts.join(' and ');
}

function LinkCard({ link, onRevoke }: { link: ShareLink; onRevoke: () => void }) {
  const badge = stateBadges[link.state];
  return (
    <Paper component="li" withBorder p="sm" className={classes.link}>
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Text fw={600} className={classes.label}>
            {link.label}
          </Text>
          <Text size="sm" fw={700} c={badge.color} className={classes.badge}>
            {badge.label}
          </Text>
        </Group>
        <Text size="sm">
          {sharedContents(link)}
          {link.has_passcode ? ' · with a passcode' : ''}
        </Text>
        <Text size="sm">
          {link.views === 0
            ? 'Not opened yet'
            : `Opened ${countText(link.views, 'time', 'times')}, last on ${when(link.last_viewed_at ?? link.created_at)}`}
        </Text>
        <Text size="sm" c="dimmed">
          Made {when(link.created_at)} ·{' '}
          {link.state === 'revoked' && link.revoked_at !== null
            ? `revoked ${when(link.revoked_at)}`
            : `${link.state === 'expired' ? 'expired' : 'works until'} ${when(link.expires_at)}`}
        </Text>
        {link.state === 'active' && (
          <Group>
            <Button
              size="xs"
              variant="default"
              color="red"
              onClick={onRevoke}
              aria-label={`Revoke ${link.label}`}
            >
              Revoke
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * Shared links (docs/product/sharing.md): every link the member made, newest first, with how
 * often and when it was opened, and Revoke, which asks first.
 */
export default function SharedLinksPage() {
  useDocumentTitle('Shared links');
  const links = useShareLinks();
  const revoke = useRevokeShareLink();
  const [revoking, setRevoking] = useState<ShareLink | null>(null);
  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.account}>
        Back to My Account
      </Anchor>
      <Title order={1}>Shared links</Title>
      <Text>
        Links you made to show photos, X-rays, records and Dental AI results to a dentist. To make
        one, tick ‘Share’ in{' '}
        <Anchor component={Link} to={paths.oralPhotos} inherit>
          X-rays and photos
        </Anchor>
        ,{' '}
        <Anchor component={Link} to={paths.medicalRecords} inherit>
          records
        </Anchor>{' '}
        or{' '}
        <Anchor component={Link} to={paths.dentalAi} inherit>
          Dental AI
        </Anchor>
        . A revoked or expired link shows nothing any more.
      </Text>
      {links.isPending && <PageSpinner />}
      {links.isError && <LoadFailed error={links.error} onRetry={links.refetch} />}
      {links.isSuccess && links.data.length === 0 && (
        <Text c="dimmed">You have not shared anything yet.</Text>
      )}
      {links.isSuccess && links.data.length > 0 && (
        <CardList label="Your shared links, newest first">
          {links.data.map((link) => (
            <LinkCard
              key={link.id}
              link={link}
              onRevoke={() => {
                revoke.reset();
                setRevoking(link);
              }}
            />
          ))}
        </CardList>
      )}
      <ConfirmModal
        opened={revoking !== null}
        onClose={() => {
          setRevoking(null);
        }}
        title="Revoke link"
        confirmLabel="Revoke"
        confirmColor="red"
        onConfirm={async () => {
          if (revoking === null) return;
          await revoke.mutateAsync(revoking.id);
          setRevoking(null);
        }}
      >
        <Text>
          Revoke ‘{revoking?.label}’? Whoever has the link will no longer see anything. This cannot
          be undone.
        </Text>
        {revoke.isError && (
          <Alert color="red" variant="outline" mt="sm">
            {errorMessage(revoke.error)}
          </Alert>
        )}
      </ConfirmModal>
    </Stack>
  );
}
