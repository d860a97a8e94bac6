import { useMemo, useState } from 'react';
import { Alert, Checkbox, Group, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import {
  appointmentNoteMaxLength,
  reminderOffsetHours,
  type AppointmentRequest,
  type ReminderOffsetHours,
} from '@dental/contracts';
import { paths } from '#web/config/paths';
import { FormActions } from '#web/components/form-actions';
import { errorMessage } from '#web/lib/api-client';
import { useLeave } from '#web/lib/use-leave';
import { useReminderContact } from '../api/reminder-contact';
import {
  alertTimesOf,
  reminderChoiceStates,
  reminderLabels,
  toRequest,
  type AppointmentFormValues,
  type ReminderChoiceState,
} from '../appointment-format';
import { ReminderConfirmModal } from './reminder-confirm-modal';

export const noReminderTimeMessage = 'Choose when to be reminded: 1 hour, 1 day or 1 week before.';
export const noReminderChannelMessage =
  'Switch on the E-mail alert or the SMS alert to be reminded.';

/** Why a reminder choice is off, or why a past one still shows (docs/decisions/past-reminder-offsets.md). */
export const reminderChoiceNotes: Record<ReminderChoiceState, string | undefined> = {
  open: undefined,
  past: 'Already past for this date and time, so it could never be sent.',
  kept: 'Its time has passed; it stays as it was set.',
};

/** The form's rules; reminders already past for the date and time are left out before the
 *  checks, so a past choice alone counts as no choice. */
/** The switches' labels; the notification goes to the devices where the member turned them on
 *  (Profile, 'Notifications on this device'). */
const channelLabels = {
  email_alert: 'E-mail alert',
  sms_alert: 'SMS alert',
  push_alert: 'Notification on my devices',
} as const;

function formSchema(savedAlerts: readonly number[]) {
  return (
    z
      .object({
        date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter the date.'),
        time: z.string().regex(/^\d{2}:\d{2}$/, 'Enter the time.'),
        note: z
          .string()
          .max(
            appointmentNoteMaxLength,
            `The note must be at most ${appointmentNoteMaxLength} characters.`,
          ),
        email_alert: z.boolean(),
        sms_alert: z.boolean(),
        push_alert: z.boolean(),
        reminders: z.array(z.union(reminderOffsetHours.map((hours) => z.literal(hours)))),
      })
      .transform((values) => {
        const states = reminderChoiceStates(values, new Date(), savedAlerts);
        return {
          ...values,
          reminders: values.reminders.filter((hours) => states[hours] !== 'past'),
        };
      })
      // An alert needs both a channel and a time; half of one is never sent
      // (docs/decisions/patient-grade-defects.md).
      .superRefine((values, context) => {
        const channel = values.email_alert || values.sms_alert || values.push_alert;
        if (channel && values.reminders.length === 0) {
          context.addIssue({ code: 'custom', path: ['reminders'], message: noReminderTimeMessage });
        }
        if (!channel && values.reminders.length > 0) {
          context.addIssue({
            code: 'custom',
            path: ['reminders'],
            message: noReminderChannelMessage,
          });
        }
      })
  );
}

export interface AppointmentFormProps {
  initial: AppointmentFormValues;
  submitLabel: string;
  onSave: (body: AppointmentRequest) => Promise<unknown>;
}

/** New Appointment and Edit Appointment (docs/product/appointments.md#new-and-edit-appointment):
 *  date, time, note, the e-mail and SMS alert switches and the 1 hour / 1 day / 1 week reminder
 *  choices. With a reminder on, the reminder confirmation shows where it goes before anything is
 *  saved. */
export function AppointmentForm({ initial, submitLabel, onSave }: AppointmentFormProps) {
  const contact = useReminderContact();
  const [confirming, setConfirming] = useState<AppointmentFormValues | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const leave = useLeave(paths.appointments);
  // The alerts the appointment already has: one of them may stay once its time has passed.
  const savedAlerts = useMemo(() => alertTimesOf(initial), [initial]);
  const schema = useMemo(() => formSchema(savedAlerts), [savedAlerts]);
  const {
    control,
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<AppointmentFormValues>({ resolver: zodResolver(schema), defaultValues: initial });
  const [date, time] = useWatch({ control, name: ['date', 'time'] });
  const choiceStates = reminderChoiceStates({ date, time }, new Date(), savedAlerts);

  const save = async (values: AppointmentFormValues) => {
    setFailure(null);
    try {
      await onSave(toRequest(values));
    } catch (error) {
      setFailure(errorMessage(error));
      throw error;
    }
  };

  const onSubmit = handleSubmit(async (values) => {
    const remindersOn = (values.email_alert || values.sms_alert) && values.reminders.length > 0;
    if (remindersOn && contact.data !== undefined) {
      setConfirming(values);
      return;
    }
    await save(values).catch(() => undefined);
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md">
        <Group grow preventGrowOverflow={false} wrap="wrap" align="flex-start">
          <TextInput
            type="date"
            label="Date"
            required
            miw={140}
            {...register('date')}
            error={errors.date?.message}
          />
          <TextInput
            type="time"
            label="Time"
            required
            miw={140}
            {...register('time')}
            error={errors.time?.message}
          />
        </Group>
        <Textarea
          label="Note"
          autosize
          minRows={3}
          maxLength={appointmentNoteMaxLength}
          {...register('note')}
          error={errors.note?.message}
        />
        {(['email_alert', 'sms_alert', 'push_alert'] as const).map((name) => (
          // Controlled: Mantine's Switch ignores the checked state register() sets on its input.
          <Controller
            key={name}
            control={control}
            name={name}
            // The reminder times' error depends on the switches: check it again on each change.
            rules={{ deps: ['reminders'] }}
            render={({ field: { value, ...field } }) => (
              <Switch
                label={channelLabels[name]}
                checked={value}
                {...field}
                onChange={(event) => {
                  field.onChange(event.currentTarget.checked);
                }}
              />
            )}
          />
        ))}
        <Controller
          control={control}
          name="reminders"
          render={({ field }) => (
            <Checkbox.Group
              label="Remind me"
              error={errors.reminders?.message}
              // A choice already past shows unticked and off; it comes back if the date moves.
              value={field.value.filter((hours) => choiceStates[hours] !== 'past').map(String)}
              onChange={(values) => {
                field.onChange(
                  reminderOffsetHours.filter((hours) => values.includes(String(hours))),
                );
              }}
            >
              <Stack gap="xs" mt="xs">
                {reminderOffsetHours.map((hours: ReminderOffsetHours) => (
                  <Checkbox
                    key={hours}
                    value={String(hours)}
                    label={reminderLabels[hours]}
                    disabled={choiceStates[hours] === 'past'}
                    description={reminderChoiceNotes[choiceStates[hours]]}
                  />
                ))}
              </Stack>
            </Checkbox.Group>
          )}
        />
        {failure !== null && confirming === null && (
          <Alert color="red" variant="outline">
            {failure}
          </Alert>
        )}
        <FormActions submitLabel={submitLabel} pending={isSubmitting} onCancel={leave} />
      </Stack>
      {confirming !== null && contact.data !== undefined && (
        <ReminderConfirmModal
          opened
          onClose={() => {
            setConfirming(null);
          }}
          account={contact.data}
          email={confirming.email_alert}
          sms={confirming.sms_alert}
          onConfirm={() => save(confirming)}
        />
      )}
    </form>
  );
}
