import { Anchor, Badge, Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import type { ClinicMessageThreadSummary, MessageThreadStatus } from '@dental/contracts';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { sentAt } from '#web/features/messages/components/sent-at';
import { useClinicThreads } from '../api/clinic-api';
import { clinicPaths } from '../paths';
import shared from '#web/features/messages/messages.module.css';
import classes from './messages.module.css';

function ThreadRow({ thread }: { thread: ClinicMessageThreadSummary }) {
  return (
    <Paper component="li" withBorder p="sm">
      <Stack gap={4}>
        <Group gap="xs" justify="space-between" align="flex-start">
          <Anchor
            component={Link}
            to={clinicPaths.message(thread.id)}
            fw={thread.unread > 0 ? 700 : 600}
            className={shared.subject}
          >
            {thread.subject}
          </Anchor>
          {thread.unread > 0 && <Badge>{thread.unread} unread</Badge>}
        </Group>
        <Text size="sm">
          {thread.patient.username} · last message{' '}
          <span className={classes.nowrap}>{sentAt(thread.last_message_at)}</span>
        </Text>
        <Text size="sm">
          {thread.assigned_to === null ? 'Not assigned' : `Assigned to ${thread.assigned_to.name}`}
        </Text>
      </Stack>
    </Paper>
  );
}

/** The practice's conversations with members (docs/clinic.md): open or closed, newest message
 *  first, with the patient, the assignee and the members' unread messages. */
export default function MessagesPage() {
  useDocumentTitle('Messages');
  const [params, setParams] = useSearchParams();
  const status: MessageThreadStatus = params.get('status') === 'closed' ? 'closed' : 'open';
  const threads = useClinicThreads(status);
  return (
    <Stack gap="md">
      <Title order={1}>Messages</Title>
      <SegmentedControl
        aria-label="Conversations to show"
        className={classes.filter}
        value={status}
        onChange={(value) => {
          setParams(value === 'closed' ? { status: 'closed' } : {});
        }}
        data={[
          { value: 'open', label: 'Open' },
          { value: 'closed', label: 'Closed' },
        ]}
      />
      {threads.isError ? (
        <LoadFailed error={threads.error} onRetry={threads.refetch} />
      ) : threads.data === undefined ? (
        <PageSpinner />
      ) : threads.data.results.length === 0 ? (
        <Text>{status === 'open' ? 'No open conversations.' : 'No closed conversations.'}</Text>
      ) : (
        <Stack component="ul" gap="xs" className={shared.list} aria-label="Conversations">
          {threads.data.results.map((thread) => (
            <ThreadRow key={thread.id} thread={thread} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
