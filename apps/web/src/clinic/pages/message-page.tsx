import { useState } from 'react';
import { Alert, Anchor, Button, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import {
  dentalAiTypeLabels,
  type ClinicMessageThread,
  type MessageAttachment,
} from '@dental/contracts';
import { ImageViewer, type ViewerItem } from '#web/components/image-viewer/image-viewer';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { errorMessage } from '#web/lib/api-client';
import { useDocumentTitle } from '#web/lib/document-title';
import { photoLabel } from '#web/lib/photo-label';
import { ReplyBox } from '#web/features/messages/components/reply-box';
import { sentAt } from '#web/features/messages/components/sent-at';
import { ThreadHeading } from '#web/features/messages/components/thread-heading';
import { staffQuery, useChangeThread, useClinicThread, useStaffReply } from '../api/clinic-api';
import { useStaff } from '../console-gate';
import { clinicPaths } from '../paths';
import shared from '#web/features/messages/messages.module.css';
import classes from './messages.module.css';

/** What of an attachment the image viewer shows: photos, X-rays and Dental AI images. */
function viewerItem(item: MessageAttachment): ViewerItem | null {
  if (item.kind === 'photo' && item.photo !== null) {
    return { kind: 'image', src: item.photo.image_link, title: photoLabel(item.photo) };
  }
  if (item.kind === 'dental_ai' && item.dental_ai !== null) {
    const title = dentalAiTypeLabels[item.dental_ai.dental_ai].resultTitle;
    return { kind: 'image', src: item.dental_ai.image_url, title };
  }
  return null;
}

/** A message's attachments: images open in the console's image viewer (`onView` with the item's
 *  place among the conversation's images), a record's files are links. */
function Attachments({
  attachments,
  viewIndex,
  onView,
}: {
  attachments: MessageAttachment[];
  viewIndex: (item: MessageAttachment) => number;
  onView: (index: number) => void;
}) {
  if (attachments.length === 0) return null;
  return (
    <Stack gap="xs" component="ul" className={shared.list} aria-label="Attached">
      {attachments.map((item) => (
        <li key={`${item.kind}:${item.id}`}>
          {item.kind === 'record' ? (
            item.record === null ? (
              <Text size="sm">A record the patient deleted</Text>
            ) : (
              <Stack gap={2}>
                <Text size="sm" fw={600}>
                  Record: {item.record.title} ({item.record.record_date})
                </Text>
                {item.record.medical_files.map((file) => (
                  <Anchor key={file.id} href={file.file_link} target="_blank" size="sm">
                    Open {file.file_name}
                  </Anchor>
                ))}
              </Stack>
            )
          ) : (
            <ImageAttachment
              item={item}
              onView={() => {
                onView(viewIndex(item));
              }}
            />
          )}
        </li>
      ))}
    </Stack>
  );
}

function ImageAttachment({ item, onView }: { item: MessageAttachment; onView: () => void }) {
  const shown = viewerItem(item);
  if (shown === null) {
    return (
      <Text size="sm">
        {item.kind === 'photo'
          ? 'A photo or X-ray the patient deleted'
          : 'A Dental AI result the patient deleted'}
      </Text>
    );
  }
  const thumbnail =
    item.kind === 'photo' && item.photo !== null ? item.photo.thumbnail_link : shown.src;
  return (
    <Group gap="sm" wrap="nowrap">
      <img src={thumbnail} alt="" className={shared.thumbnail} />
      <Anchor component="button" type="button" size="sm" fw={600} ta="left" onClick={onView}>
        View {shown.title}
      </Anchor>
    </Group>
  );
}

/** Who the conversation is given to: to oneself, to nobody, or (an administrator, who sees the
 *  staff list) to any active staff member; and close or reopen. */
function ThreadActions({ thread }: { thread: ClinicMessageThread }) {
  const me = useStaff();
  const change = useChangeThread(thread.id);
  const staff = useQuery({ ...staffQuery, enabled: me.role === 'clinic_admin' });
  const active = staff.data?.results.filter((member) => member.status === 'active') ?? [];
  const assignedId = thread.assigned_to?.id ?? null;
  return (
    <Stack gap="xs">
      <Text size="sm">
        {thread.assigned_to === null
          ? 'Not assigned'
          : thread.assigned_to.id === me.id
            ? 'Assigned to you'
            : `Assigned to ${thread.assigned_to.name}`}
      </Text>
      <Group gap="xs" align="flex-end">
        {assignedId !== me.id && (
          <Button
            size="xs"
            variant="default"
            loading={change.isPending}
            onClick={() => {
              change.mutate({ assigned_to: me.id });
            }}
          >
            Assign to me
          </Button>
        )}
        {assignedId !== null && (
          <Button
            size="xs"
            variant="default"
            loading={change.isPending}
            onClick={() => {
              change.mutate({ assigned_to: null });
            }}
          >
            Unassign
          </Button>
        )}
        {active.length > 0 && (
          <NativeSelect
            size="xs"
            label="Assign to"
            value={assignedId ?? ''}
            onChange={(event) => {
              const chosen = event.currentTarget.value;
              change.mutate({ assigned_to: chosen === '' ? null : chosen });
            }}
            data={[
              { value: '', label: 'Nobody' },
              ...active.map((member) => ({ value: member.id, label: member.name })),
            ]}
          />
        )}
        <Button
          size="xs"
          variant="default"
          loading={change.isPending}
          onClick={() => {
            change.mutate({ status: thread.status === 'open' ? 'closed' : 'open' });
          }}
        >
          {thread.status === 'open' ? 'Close conversation' : 'Reopen conversation'}
        </Button>
      </Group>
      {change.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(change.error)}
        </Alert>
      )}
    </Stack>
  );
}

/** A conversation with a member as staff read it (docs/clinic.md): the messages oldest first as
 *  plain text, the attached images in the image viewer, who it is assigned to, close or reopen,
 *  and a reply box. New messages appear through the layout's event stream. */
export default function MessagePage() {
  const { threadId = '' } = useParams();
  const thread = useClinicThread(threadId);
  const reply = useStaffReply(threadId);
  useDocumentTitle(thread.data?.subject ?? 'Message');
  const [viewed, setViewed] = useState<number | null>(null);

  const attachments = thread.data?.messages.flatMap((message) => message.attachments) ?? [];
  const images = attachments.flatMap((item) => {
    const shown = viewerItem(item);
    return shown === null ? [] : [{ key: `${item.kind}:${item.id}`, shown }];
  });
  const viewIndex = (item: MessageAttachment) =>
    images.findIndex((image) => image.key === `${item.kind}:${item.id}`);

  return (
    <Stack gap="lg">
      <Anchor component={Link} to={clinicPaths.messages} size="sm">
        All messages
      </Anchor>
      {thread.isError && <LoadFailed error={thread.error} onRetry={thread.refetch} />}
      {thread.isPending && <PageSpinner />}
      {thread.data && (
        <>
          <Stack gap={4}>
            <ThreadHeading subject={thread.data.subject} status={thread.data.status} />
            <Text>From {thread.data.patient.username}</Text>
          </Stack>
          <ThreadActions thread={thread.data} />
          <Stack component="ol" gap="sm" className={shared.list} aria-label="Messages">
            {thread.data.messages.map((message) => (
              <Paper
                component="li"
                key={message.id}
                withBorder
                p="sm"
                className={message.author.role === 'member' ? classes.fromMember : undefined}
              >
                <Stack gap={4}>
                  <Text size="sm" fw={600}>
                    {message.author.role === 'member'
                      ? thread.data.patient.username
                      : message.author.name}{' '}
                    · {sentAt(message.created_at)}
                    {message.author.role === 'staff' && message.read_at !== null && ' · Read'}
                  </Text>
                  {/* Plain text: rendered as text, never as HTML. */}
                  <Text className={shared.body}>{message.body}</Text>
                  <Attachments
                    attachments={message.attachments}
                    viewIndex={viewIndex}
                    onView={setViewed}
                  />
                </Stack>
              </Paper>
            ))}
          </Stack>
          <ReplyBox
            reply={reply}
            submitLabel="Send reply"
            description="The patient is told by e-mail that there is a new message, never what it says."
          />
          <ImageViewer
            items={images.map((image) => image.shown)}
            index={viewed}
            onIndexChange={setViewed}
            onClose={() => {
              setViewed(null);
            }}
          />
        </>
      )}
    </Stack>
  );
}
