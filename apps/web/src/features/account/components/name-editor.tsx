import { TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { username, type Account } from '@dental/contracts';
import { errorMessage } from '#web/lib/api-client';
import { useUpdateAccount } from '../api/update-account';
import { EditActions, InlineEdit } from './inline-edit';

const nameForm = z.object({ username });

interface NameFormProps {
  account: Account;
  labelId: string;
  onClose: () => void;
}

function NameForm({ account, labelId, onClose }: NameFormProps) {
  const updateAccount = useUpdateAccount();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(nameForm), defaultValues: { username: account.username } });

  const onSubmit = handleSubmit((changes) => {
    updateAccount.mutate(
      { current: account, changes },
      {
        onSuccess: onClose,
        onError: (error) => {
          setError('username', { type: 'server', message: errorMessage(error) });
        },
      },
    );
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <TextInput
        aria-labelledby={labelId}
        autoComplete="name"
        required
        autoFocus
        {...register('username')}
        error={errors.username?.message}
      />
      <EditActions saving={updateAccount.isPending} onCancel={onClose} />
    </form>
  );
}

/** The user's name, edited in place with PUT /api/account/. */
export function NameEditor({ account }: { account: Account }) {
  return (
    <InlineEdit
      label="Name"
      editLabel="Edit name"
      value={account.username}
      renderForm={(close, labelId) => (
        <NameForm account={account} labelId={labelId} onClose={close} />
      )}
    />
  );
}
