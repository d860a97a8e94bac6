import { useState, type SyntheticEvent } from 'react';
import { Alert, Checkbox, Fieldset, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useNavigate } from 'react-router';
import {
  dentalAiTypeLabels,
  messageBodyMaxLength,
  messageMaxAttachments,
  messageSubjectMaxLength,
  type MessageAttachmentRef,
} from '@dental/contracts';
import { paths } from '#web/config/paths';
import { FormActions } from '#web/components/form-actions';
import { LoadFailed } from '#web/components/load-failed';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useDocumentTitle } from '#web/lib/document-title';
import { photoLabel } from '#web/lib/photo-label';
import { useAttachableItems, useStartThread } from './api/messages';

const key = (ref: MessageAttachmentRef) => `${ref.kind}:${ref.id}`;

/** New message (docs/product/messages.md#screens): a subject, the message, and the member's own
 *  photos, X-rays, records or Dental AI results to attach. */
export default function NewMessagePage() {
  useDocumentTitle('New message');
  const navigate = useNavigate();
  const items = useAttachableItems();
  const start = useStartThread();
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [attached, setAttached] = useState<MessageAttachmentRef[]>([]);

  const toggle = (ref: MessageAttachmentRef, on: boolean) => {
    setAttached((current) =>
      on ? [...current, ref] : current.filter((other) => key(other) !== key(ref)),
    );
  };
  const checkbox = (ref: MessageAttachmentRef, label: string) => (
    <Checkbox
      key={key(ref)}
      label={label}
      checked={attached.some((other) => key(other) === key(ref))}
      onChange={(event) => {
        toggle(ref, event.currentTarget.checked);
      }}
    />
  );
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    start.mutate(
      { subject, body, attachments: attached },
      {
        onSuccess: ({ id }) => {
          void navigate(paths.messageThread(id), { replace: true });
        },
      },
    );
  };
  const fieldErrors = start.error instanceof ApiError ? start.error.fieldErrors : {};
  const fieldError = (name: string) => fieldErrors[name]?.[0];
  const otherError =
    start.isError && fieldError('subject') === undefined && fieldError('body') === undefined;

  return (
    <Stack gap="lg">
      <Title order={1}>New message</Title>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Subject"
            required
            maxLength={messageSubjectMaxLength}
            value={subject}
            onChange={(event) => {
              setSubject(event.currentTarget.value);
            }}
            error={fieldError('subject')}
          />
          <Textarea
            label="Message"
            required
            autosize
            minRows={5}
            maxLength={messageBodyMaxLength}
            value={body}
            onChange={(event) => {
              setBody(event.currentTarget.value);
            }}
            error={fieldError('body')}
          />
          <Fieldset
            legend={`Attach your items (up to ${String(messageMaxAttachments)})`}
            variant="unstyled"
          >
            <Stack gap="xs">
              <Text size="sm">
                The practice’s staff can open what you attach, and nothing else.
              </Text>
              {items.isPending && <Text size="sm">Loading your items…</Text>}
              {items.isError && <LoadFailed error={items.error} onRetry={items.refetch} />}
              {items.data && (
                <>
                  {items.data.photos.map((photo) =>
                    checkbox({ kind: 'photo', id: photo.id }, photoLabel(photo)),
                  )}
                  {items.data.records.map((record) =>
                    checkbox(
                      { kind: 'record', id: record.id },
                      `Record: ${record.title} (${record.record_date})`,
                    ),
                  )}
                  {items.data.dentalAi.map((result) =>
                    checkbox(
                      { kind: 'dental_ai', id: result.id },
                      `${dentalAiTypeLabels[result.dental_ai].resultTitle} of ${result.created_at.slice(0, 10)}`,
                    ),
                  )}
                  {items.data.photos.length +
                    items.data.records.length +
                    items.data.dentalAi.length ===
                    0 && (
                    <Text size="sm">You have no photos, records or Dental AI results yet.</Text>
                  )}
                </>
              )}
            </Stack>
          </Fieldset>
          {otherError && (
            <Alert color="red" variant="outline">
              {errorMessage(start.error)}
            </Alert>
          )}
          <FormActions
            submitLabel="Send"
            pending={start.isPending}
            onCancel={() => {
              void navigate(paths.messages);
            }}
          />
        </Stack>
      </form>
    </Stack>
  );
}
