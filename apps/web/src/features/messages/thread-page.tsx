import { useState, type SyntheticEvent } from 'react';
import { Alert, Anchor, Badge, Button, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { messageBodyMaxLength } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { LoadFailed } from '#web/components/load-failed';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useDocumentTitle } from '#web/lib/document-title';
import { useLiveMessages } from '#web/lib/message-events';
import { useReply, useThread } from './api/messages';
import { AttachmentList } from './components/attachment-list';
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
  const [body, setBody] = useState('');

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    reply.mutate(
      { body },
      {
        onSuccess: () => {
          setBody('');
        },
      },
    );
  };
  const bodyError = reply.error instanceof ApiError ? reply.error.fieldErrors.body?.[0] : undefined;

  return (
    <Stack gap="lg">
      <Anchor component={Link} to={paths.messages}>
        All messages
      </Anchor>
      {thread.isPending && <Text>Loading the conversation…</Text>}
      {thread.isError && <LoadFailed error={thread.error} onRetry={thread.refetch} />}
      {thread.data && (
        <>
          <Group gap="sm" align="center">
            <Title order={1} className={classes.subject}>
              {thread.data.subject}
            </Title>
            {thread.data.status === 'closed' && (
              <Badge color="gray" variant="outline">
                Closed
              </Badge>
            )}
          </Group>
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
          <form onSubmit={submit} noValidate>
            <Stack gap="sm">
              <Textarea
                label="Reply"
                autosize
                minRows={3}
                maxLength={messageBodyMaxLength}
                value={body}
                onChange={(event) => {
                  setBody(event.currentTarget.value);
                }}
                error={bodyError}
              />
              {reply.isError && bodyError === undefined && (
                <Alert color="red" variant="outline">
                  {errorMessage(reply.error)}
                </Alert>
              )}
              {thread.data.status === 'closed' && (
                <Text size="sm">This conversation is closed; a reply opens it again.</Text>
              )}
              <Group justify="flex-end">
                <Button type="submit" loading={reply.isPending}>
                  Send
                </Button>
              </Group>
            </Stack>
          </form>
        </>
      )}
    </Stack>
  );
}
