import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Radio, Stack, Text } from '@mantine/core';
import dayjs from 'dayjs';
import {
  recallNeedsChannelMessage,
  type CheckUpRecall,
  type CheckUpRecallRequest,
} from '@dental/contracts';
import { Section } from '#web/components/section';
import { errorMessage } from '#web/lib/api-client';
import { useCheckUpRecall, useSaveCheckUpRecall } from '../api/check-up-recall';
import { useReminderContact } from '../api/reminder-contact';

const intervalChoices = [
  { value: 'off', label: 'Off' },
  { value: '6', label: 'Every 6 months' },
  { value: '12', label: 'Every 12 months' },
] as const;

const recallDate = (iso: string) => dayjs(iso).format('MM-DD-YYYY');

/** Where the due date stands, in words: counted from the last past appointment. */
export function recallSummary(recall: CheckUpRecall): string {
  if (recall.interval_months === null) return 'No check-up reminder is set.';
  if (recall.last_appointment_date === null || recall.due_date === null) {
    return `You have no past appointment yet: the reminder comes ${String(recall.interval_months)} months after your first one.`;
  }
  return `Your last appointment was on ${recallDate(recall.last_appointment_date)}, so the reminder is due on ${recallDate(recall.due_date)}. It is not sent while a later appointment is booked.`;
}

function RecallForm({ recall }: { recall: CheckUpRecall }) {
  const save = useSaveCheckUpRecall();
  const contact = useReminderContact().data;
  const [months, setMonths] = useState(String(recall.interval_months ?? 'off'));
  // E-mail is offered ticked when the reminder is first switched on.
  const [channels, setChannels] = useState<string[]>(
    recall.interval_months === null
      ? ['email']
      : [...(recall.email_alert ? ['email'] : []), ...(recall.sms_alert ? ['sms'] : [])],
  );
  const emailAlert = channels.includes('email');
  const smsAlert = channels.includes('sms');
  const on = months !== 'off';
  const noChannel = on && !emailAlert && !smsAlert;

  const onSave = () => {
    const request: CheckUpRecallRequest = {
      interval_months: months === '6' ? 6 : months === '12' ? 12 : null,
      email_alert: on && emailAlert,
      sms_alert: on && smsAlert,
    };
    save.mutate(request);
  };

  return (
    <Stack gap="sm">
      <Text size="sm">
        We can remind you to book a check-up some months after your last past appointment.
      </Text>
      <Radio.Group label="Remind me" value={months} onChange={setMonths}>
        <Group gap="md" mt={4}>
          {intervalChoices.map((choice) => (
            <Radio key={choice.value} value={choice.value} label={choice.label} />
          ))}
        </Group>
      </Radio.Group>
      {on && (
        <Checkbox.Group label="By" value={channels} onChange={setChannels}>
          <Group gap="md" mt={4}>
            <Checkbox value="email" label="E-mail" />
            <Checkbox value="sms" label="SMS" />
          </Group>
        </Checkbox.Group>
      )}
      {noChannel && (
        <Text size="sm" c="red.9">
          {recallNeedsChannelMessage}
        </Text>
      )}
      {on && smsAlert && contact?.phone === null && (
        <Text size="sm">Add a phone number on your Profile so that the SMS can reach you.</Text>
      )}
      {on && emailAlert && contact !== undefined && !contact.email_confirmed && (
        <Text size="sm">The e-mail goes out once your address is confirmed.</Text>
      )}
      <Text size="sm" role="status">
        {recallSummary(save.data ?? recall)}
      </Text>
      {save.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(save.error)}
        </Alert>
      )}
      <Group>
        <Button onClick={onSave} loading={save.isPending} disabled={noChannel}>
          Save reminder
        </Button>
        {save.isSuccess && <Text size="sm">Saved.</Text>}
      </Group>
    </Stack>
  );
}

/** The check-up recall (docs/product/appointments.md#check-up-recall), under the list; the
 *  member's own setting, so not shown while another's record is viewed. */
export function CheckUpRecallSection() {
  const recall = useCheckUpRecall(true);
  return (
    <Section title="Check-up reminder">
      {recall.data !== undefined ? (
        <RecallForm recall={recall.data} />
      ) : recall.isError ? (
        <Alert color="red" variant="outline">
          {errorMessage(recall.error)}
        </Alert>
      ) : (
        <Text size="sm">Loading…</Text>
      )}
    </Section>
  );
}
