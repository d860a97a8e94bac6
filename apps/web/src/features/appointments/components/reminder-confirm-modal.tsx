import { useId, useState } from 'react';
import { Alert, Input, Stack, Text } from '@mantine/core';
import PhoneInput from 'react-phone-number-input';
// Flags are bundled components of the package; its default fetches images from another site.
import flags from 'react-phone-number-input/flags';
import 'react-phone-number-input/style.css';
import type { Account } from '@dental/contracts';
import { ConfirmModal } from '#web/components/confirm-modal';
import { errorMessage } from '#web/lib/api-client';
import { useSaveReminderPhone } from '../api/reminder-contact';

export interface ReminderConfirmModalProps {
  opened: boolean;
  onClose: () => void;
  account: Account;
  email: boolean;
  sms: boolean;
  /** Saves the appointment; runs after a changed phone number was saved to the profile. */
  onConfirm: () => Promise<void>;
}

/** The reminder confirmation (docs/product/appointments.md#reminder-confirmation): the e-mail
 *  address reminders go to, and the phone number for SMS, which can be changed here (it is the
 *  profile's phone). */
export function ReminderConfirmModal({
  opened,
  onClose,
  account,
  email,
  sms,
  onConfirm,
}: ReminderConfirmModalProps) {
  const phoneId = useId();
  const [phone, setPhone] = useState<string | undefined>(account.phone ?? undefined);
  const [failure, setFailure] = useState<string | null>(null);
  const savePhone = useSaveReminderPhone();

  const confirm = async () => {
    setFailure(null);
    try {
      const wanted = phone ?? null;
      if (sms && wanted !== account.phone) {
        await savePhone.mutateAsync({ current: account, phone: wanted });
      }
      await onConfirm();
    } catch (error) {
      setFailure(errorMessage(error));
      throw error;
    }
  };

  return (
    <ConfirmModal
      opened={opened}
      onClose={onClose}
      title="Reminder confirmation"
      confirmLabel="Confirm"
      onConfirm={confirm}
    >
      <Stack gap="sm">
        {email && (
          <Text>
            E-mail reminders go to{' '}
            <Text span fw={600}>
              {account.email}
            </Text>
            .
          </Text>
        )}
        {sms && (
          <Input.Wrapper
            id={phoneId}
            label="Phone for SMS reminders"
            description={
              phone === undefined
                ? 'Add your phone number to receive SMS reminders; without one no SMS is sent.'
                : 'SMS reminders go to this number. Changing it changes the phone on your profile.'
            }
          >
            <PhoneInput
              id={phoneId}
              defaultCountry="US"
              flags={flags}
              autoComplete="tel"
              value={phone}
              onChange={setPhone}
              inputComponent={Input}
            />
          </Input.Wrapper>
        )}
        {failure !== null && (
          <Alert color="red" variant="outline">
            {failure}
          </Alert>
        )}
      </Stack>
    </ConfirmModal>
  );
}
