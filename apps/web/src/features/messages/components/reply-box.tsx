import { useState, type ReactNode, type SyntheticEvent } from 'react';
import { Alert, Button, Group, Stack, Textarea } from '@mantine/core';
import type { UseMutationResult } from '@tanstack/react-query';
import { messageBodyMaxLength } from '@dental/contracts';
import { ApiError, errorMessage } from '#web/lib/api-client';

/** The reply box of a conversation, the member's and the clinic console's: plain text up to
 *  5,000 characters, the API's objection under the field, emptied once the reply is sent.
 *  `children` sits above the button (a note such as 'this conversation is closed'). */
export function ReplyBox({
  reply,
  submitLabel = 'Send',
  description,
  children,
}: {
  reply: UseMutationResult<unknown, Error, { body: string }>;
  submitLabel?: string;
  description?: string;
  children?: ReactNode;
}) {
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
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Textarea
          label="Reply"
          description={description}
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
        {children}
        <Group justify="flex-end">
          <Button type="submit" loading={reply.isPending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
