import { Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '#web/config/paths';
import { LoadFailed } from '#web/components/load-failed';
import { useDocumentTitle } from '#web/lib/document-title';
import { useLiveMessages } from '#web/lib/message-events';
import { useThreads } from './api/messages';
import { sentAt } from './components/sent-at';
import classes from './messages.module.css';

/** Messages (docs/product/messages.md#screens): the member's conversations with the practice,
 *  newest message first, each marked with its unread count; live while open. */
export default function MessagesPage() {
  useDocumentTitle('Messages');
  useLiveMessages();
  const threads = useThreads();
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center">
        <Title order={1}>Messages</Title>
        <Button component={Link} to={paths.messageNew}>
          New message
        </Button>
      </Group>
      <Text>Write to your dental practice. Its staff answer here.</Text>
      {threads.isPending && <Text>Loading your messages…</Text>}
      {threads.isError && <LoadFailed error={threads.error} onRetry={threads.refetch} />}
      {threads.data?.results.length === 0 && <Text>You have no messages yet.</Text>}
      {threads.data && threads.data.results.length > 0 && (
        <Stack component="ul" gap="sm" className={classes.list} aria-label="Conversations">
          {threads.data.results.map((thread) => (
            <li key={thread.id} className={classes.item}>
              <Anchor
                component={Link}
                to={paths.messageThread(thread.id)}
                fw={thread.unread > 0 ? 700 : 500}
                className={classes.subject}
              >
                {thread.subject}
              </Anchor>
              <Group gap="xs" wrap="wrap">
                <Text size="sm">{sentAt(thread.last_message_at)}</Text>
                {thread.unread > 0 && (
                  <Badge color="red" variant="filled">
                    {thread.unread} unread
                  </Badge>
                )}
                {thread.status === 'closed' && (
                  <Badge color="gray" variant="outline">
                    Closed
                  </Badge>
                )}
              </Group>
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
