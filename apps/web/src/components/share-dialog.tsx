import { useEffect } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Button,
  CopyButton,
  NativeSelect,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import dayjs from 'dayjs';
import { Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import {
  shareLabelMaxLength,
  sharePasscodeMaxLength,
  sharePasscodeMinLength,
} from '@dental/contracts';
import { ApiError, errorMessage } from '../lib/api-client';
import { dateFormat } from '../lib/dates';
import { useCreateShareLink } from '../lib/share-links';
import { Dialog } from './dialog';
import { FormActions } from './form-actions';

/** How long a link may work: 1 hour to 30 days (docs/product/sharing.md). */
export const shareExpiryChoices = [
  { label: '1 hour', value: '1' },
  { label: '1 day', value: '24' },
  { label: '3 days', value: '72' },
  { label: '7 days', value: '168' },
  { label: '30 days', value: '720' },
] as const;

const shareForm = z.object({
  label: z
    .string()
    .trim()
    .min(1, 'Enter a label, such as the dentist’s name.')
    .max(shareLabelMaxLength, `A label has at most ${shareLabelMaxLength} characters.`),
  hours: z.enum(['1', '24', '72', '168', '720']),
  passcode: z
    .string()
    .refine(
      (value) =>
        value === '' ||
        (value.length >= sharePasscodeMinLength && value.length <= sharePasscodeMaxLength),
      `A passcode has ${sharePasscodeMinLength} to ${sharePasscodeMaxLength} characters.`,
    ),
});
type ShareForm = z.infer<typeof shareForm>;

const emptyForm: ShareForm = { label: '', hours: '168', passcode: '' };

export interface ShareDialogProps {
  opened: boolean;
  /** `linkMade`: the dialog showed a new link before it closed. */
  onClose: (linkMade: boolean) => void;
  /** Ids of the member's photos and X-rays to share. */
  photos: readonly string[];
  /** Ids of the member's records to share. */
  records: readonly string[];
  /** Ids of the member's Dental AI results to share. */
  dentalAi: readonly string[];
  /** Ids of the member's finished reports to share. */
  reports: readonly string[];
  /** What is shared, in words ('2 X-rays'), for the dialog's first line. */
  summary: string;
}

/**
 * Share the chosen photos, records, Dental AI results or reports with a dentist
 * (docs/product/sharing.md): a label, how long the link works and an optional passcode; then the
 * link, shown once, with a Copy button.
 */
export function ShareDialog({
  opened,
  onClose,
  photos,
  records,
  dentalAi,
  reports,
  summary,
}: ShareDialogProps) {
  const create = useCreateShareLink();
  const form = useForm<ShareForm>({ resolver: zodResolver(shareForm), defaultValues: emptyForm });
  const { reset } = form;
  const { reset: resetCreate } = create;

  // Each opening starts over: a link made before is not shown again.
  useEffect(() => {
    if (opened) {
      reset(emptyForm);
      resetCreate();
    }
  }, [opened, reset, resetCreate]);

  const submit = form.handleSubmit(async (values) => {
    try {
      await create.mutateAsync({
        photos: [...photos],
        records: [...records],
        dental_ai: [...dentalAi],
        reports: [...reports],
        label: values.label,
        expires_in_hours: Number(values.hours),
        ...(values.passcode === '' ? {} : { passcode: values.passcode }),
      });
    } catch (error) {
      if (error instanceof ApiError) {
        for (const field of ['label', 'passcode'] as const) {
          const [message] = error.fieldErrors[field] ?? [];
          if (message !== undefined) form.setError(field, { type: 'server', message });
        }
      }
    }
  });

  const made = create.data;
  const sentPasscode = form.getValues('passcode') !== '';
  const close = () => {
    onClose(made !== undefined);
  };
  return (
    <Dialog
      opened={opened}
      onClose={close}
      title={made === undefined ? 'Share with a dentist' : 'Your link is ready'}
      closeOnClickOutside={!create.isPending}
      closeOnEscape={!create.isPending}
      centered
    >
      {made === undefined ? (
        <form
          noValidate
          onSubmit={(event) => {
            void submit(event);
          }}
        >
          <Stack gap="sm">
            <Text>
              Anyone with the link can see {summary} until it expires or you revoke it. They do not
              need an account.
            </Text>
            <TextInput
              label="Label"
              description="For you, and shown on the shared page."
              placeholder="For Dr. Patel"
              withAsterisk
              maxLength={shareLabelMaxLength}
              error={form.formState.errors.label?.message}
              {...form.register('label')}
            />
            <Controller
              control={form.control}
              name="hours"
              render={({ field }) => (
                <NativeSelect
                  label="Link works for"
                  data={shareExpiryChoices.map((choice) => ({ ...choice }))}
                  value={field.value}
                  onChange={(event) => {
                    field.onChange(event.currentTarget.value);
                  }}
                />
              )}
            />
            <PasswordInput
              label="Passcode (optional)"
              description="Tell it to the dentist separately, for example by phone."
              autoComplete="new-password"
              error={form.formState.errors.passcode?.message}
              {...form.register('passcode')}
            />
            {create.isError && (
              <Alert color="red" variant="outline">
                {errorMessage(create.error)}
              </Alert>
            )}
            <FormActions submitLabel="Create link" onCancel={close} pending={create.isPending} />
          </Stack>
        </form>
      ) : (
        <Stack gap="sm">
          <TextInput
            label="Link to share"
            description="Copy it now: it is shown only once."
            value={made.url}
            readOnly
            onFocus={(event) => {
              event.currentTarget.select();
            }}
          />
          <Text size="sm">
            It works until {dayjs(made.expires_at).format(`${dateFormat} HH:mm`)}
            {sentPasscode ? ', with the passcode you chose' : ''}. You can see when it is opened,
            and revoke it, under Profile → Shared links.
          </Text>
          <CopyButton value={made.url}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy} style={{ alignSelf: 'flex-start' }}>
                {copied ? 'Copied' : 'Copy link'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={close} style={{ alignSelf: 'flex-end' }}>
            Done
          </Button>
        </Stack>
      )}
    </Dialog>
  );
}
