import { useState } from 'react';
import { Alert, Button, Text } from '@mantine/core';
import { ConfirmModal } from '#web/components/confirm-modal';
import { needsPassword, PasswordCheckDialog } from '#web/components/password-check-dialog';
import { Section } from '#web/components/section';
import { errorMessage } from '#web/lib/api-client';
import { useDeleteAccount } from '../api/delete-account';

/** Deletion deactivates the account (docs/product/accounts.md#deactivation): the user is logged out
 *  and sent to /login. Long after the sign-in the server asks for the password first
 *  (docs/decisions/session-timeouts.md). */
export function DeleteAccountSection() {
  const [step, setStep] = useState<'closed' | 'confirm' | 'password'>('closed');
  const deleteAccount = useDeleteAccount();
  const close = () => {
    setStep('closed');
  };
  return (
    <Section title="Delete Data">
      <Text mb="sm">
        Your account will be deactivated and you will be logged out. Your records are kept; to use
        them again, contact customer service.
      </Text>
      <Button
        color="red"
        onClick={() => {
          deleteAccount.reset();
          setStep('confirm');
        }}
      >
        Delete Account and Data
      </Button>
      <ConfirmModal
        opened={step === 'confirm'}
        onClose={close}
        title="Delete Account and Data"
        confirmLabel="Delete"
        confirmColor="red"
        onConfirm={() =>
          deleteAccount.mutateAsync().catch((error: unknown) => {
            if (needsPassword(error)) {
              deleteAccount.reset();
              setStep('password');
            }
            throw error;
          })
        }
      >
        <Text>Do you really want to delete your account and data? You will be logged out.</Text>
        {deleteAccount.isError && (
          <Alert color="red" variant="outline" mt="sm">
            {errorMessage(deleteAccount.error)}
          </Alert>
        )}
      </ConfirmModal>
      <PasswordCheckDialog
        opened={step === 'password'}
        onClose={close}
        confirmLabel="Delete"
        confirmColor="red"
        pending={deleteAccount.isPending}
        error={deleteAccount.error}
        onSubmit={(password) => {
          deleteAccount.mutate({ password });
        }}
        onSubmitCode={(code) => {
          deleteAccount.mutate({ code });
        }}
      />
    </Section>
  );
}
