import { useState } from 'react';
import { TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { email, type Account } from '@dental/contracts';
import { needsPassword, PasswordCheckDialog } from '#web/components/password-check-dialog';
import { errorMessage } from '#web/lib/api-client';
import { useChangeEmail } from '../api/email-confirmation';
import { EditActions, InlineEdit } from './inline-edit';

const emailForm = z.object({ email });

interface EmailFormProps {
  account: Account;
  labelId: string;
  onClose: () => void;
}

function EmailForm({ account, labelId, onClose }: EmailFormProps) {
  const changeEmail = useChangeEmail();
  const [asking, setAsking] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(emailForm), defaultValues: { email: account.email } });

  const onError = (error: unknown, wanted: string) => {
    if (needsPassword(error)) {
      changeEmail.reset();
      setAsking(wanted);
      return;
    }
    setError('email', { type: 'server', message: errorMessage(error) });
  };
  const onSubmit = handleSubmit(({ email: wanted }) => {
    changeEmail.mutate(
      { email: wanted },
      {
        onSuccess: onClose,
        onError: (error) => {
          onError(error, wanted);
        },
      },
    );
  });

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <TextInput
        aria-labelledby={labelId}
        type="email"
        autoComplete="email"
        required
        autoFocus
        description="We send a link to the new address; it becomes your account's once you open it."
        {...register('email')}
        error={errors.email?.message}
      />
      <EditActions saving={changeEmail.isPending} onCancel={onClose} />
      <PasswordCheckDialog
        opened={asking !== null}
        onClose={() => {
          setAsking(null);
        }}
        confirmLabel="Change e-mail"
        pending={changeEmail.isPending}
        error={changeEmail.error}
        onSubmit={(password) => {
          if (asking !== null)
            changeEmail.mutate({ email: asking, proof: { password } }, { onSuccess: onClose });
        }}
        onSubmitCode={(code) => {
          if (asking !== null)
            changeEmail.mutate({ email: asking, proof: { code } }, { onSuccess: onClose });
        }}
      />
    </form>
  );
}

/** The e-mail address, changed in place: the change waits for the new address's confirmation
 *  (docs/decisions/email-confirmation.md), which the value says. */
export function EmailEditor({ account }: { account: Account }) {
  return (
    <InlineEdit
      label="Email"
      editLabel="Change e-mail address"
      value={
        <>
          {account.email}
          {account.pending_email !== null && (
            <>
              <br />
              <small>Changing to {account.pending_email}, waiting for confirmation</small>
            </>
          )}
          {account.pending_email === null && !account.email_confirmed && (
            <>
              <br />
              <small>Not confirmed yet</small>
            </>
          )}
        </>
      }
      renderForm={(close, labelId) => (
        <EmailForm account={account} labelId={labelId} onClose={close} />
      )}
    />
  );
}
