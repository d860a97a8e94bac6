import { Anchor, Stack, Text } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { paths } from '#web/config/paths';
import { LoadFailed } from '#web/components/load-failed';
import { useDocumentTitle } from '#web/lib/document-title';
import { useLiveMessages } from '#web/lib/message-events';
import { useReply, useThread } from './api/messages';
import { AttachmentList } from './components/attachment-list';
import { ReplyBox } from './components/reply-box';
import { ThreadHeading } from './components/thread-heading';
import { sentAt } from './components/sent-at';
import classes from './messages.module.css';

/** A conversation (docs/product/messages.md#screens): its messages oldest first, as plain text,
 *  and a reply box; the practice's answers appear while it is open. */
export default function ThreadPage() {
  const { threadId = '' } = useParams();
  useLiveMessages();
  const thread = useThread(threadId);
  useDocumentTitle(thread.data?.subject ?? 'Message');
  const reply = useReply(threadId);

  return (
    <Stack gap="lg">
      <Anchor component={Link} to={paths.messages}>
        All messages
      </Anchor>
      {thread.isPending && <Text>Loading the conversation…</Text>}
      {thread.isError && <LoadFailed error={thread.error} onRetry={thread.refetch} />}
      {thread.data && (
        <>
          <ThreadHeading subject={thread.data.subject} status={thread.data.status} />
          <Stack component="ol" gap="sm" className={classes.list} aria-label="Messages">
            {thread.data.messages.map((message) => (
              <li
                key={message.id}
                className={
                  message.author.role === 'staff'
                    ? `${classes.item} ${classes.fromPractice}`
                    : classes.item
                }
              >
                <Text size="sm" fw={600}>
                  {message.author.role === 'staff' ? message.author.name : 'You'} ·{' '}
                  {sentAt(message.created_at)}
                  {message.author.role === 'member' && message.read_at !== null && ' · Read'}
                </Text>
                {/* Plain text: rendered as text, never as HTML. */}
                <Text className={classes.body}>{message.body}</Text>
                <AttachmentList attachments={message.attachments} />
              </li>
            ))}
          </Stack>
          <ReplyBox reply={reply}>
            {thread.data.status === 'closed' && (
              <Text size="sm">This conversation is closed; a reply opens it again.</Text>
            )}
          </ReplyBox>
        </>
      )}
    </Stack>
  );
}
