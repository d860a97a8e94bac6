import { zodResolver } from '@hookform/resolvers/zod';
import { formatPhoneNumberIntl } from 'react-phone-number-input';
import { Controller, useForm } from 'react-hook-form';
import { updateAccountRequest, type Account } from '@dental/contracts';
import { PhoneField } from '#web/components/phone-field';
import { errorMessage } from '#web/lib/api-client';
import { useUpdateAccount } from '../api/update-account';
import { EditActions, InlineEdit } from './inline-edit';

const phoneForm = updateAccountRequest.pick({ phone: true });

interface PhoneFormProps {
  account: Account;
  labelId: string;
  onClose: () => void;
}

function PhoneForm({ account, labelId, onClose }: PhoneFormProps) {
  const updateAccount = useUpdateAccount();
  const { control, handleSubmit, setError } = useForm({
    resolver: zodResolver(phoneForm),
    defaultValues: { phone: account.phone ?? '' },
  });

  const onSubmit = handleSubmit(({ phone }) => {
    updateAccount.mutate(
      { current: account, changes: { phone: phone ?? null } },
      {
        onSuccess: onClose,
        onError: (error) => {
          setError('phone', { type: 'server', message: errorMessage(error) });
        },
      },
    );
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Controller
        control={control}
        name="phone"
        render={({ field, fieldState }) => (
          <PhoneField
            labelledBy={labelId}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            error={fieldState.error?.message}
          />
        )}
      />
      <EditActions saving={updateAccount.isPending} onCancel={onClose} />
    </form>
  );
}

/** The user's phone number, edited in place; clearing it removes the number. */
export function PhoneEditor({ account }: { account: Account }) {
  return (
    <InlineEdit
      label="Phone"
      editLabel="Edit phone"
      value={account.phone === null ? 'Not set' : formatPhoneNumberIntl(account.phone)}
      renderForm={(close, labelId) => (
        <PhoneForm account={account} labelId={labelId} onClose={close} />
      )}
    />
  );
}
