import { useState, type SyntheticEvent } from 'react';
import { Alert, Button, Group, PasswordInput, Text } from '@mantine/core';
import { Dialog } from '#web/components/dialog';
import { ApiError, errorMessage } from '#web/lib/api-client';

export const passwordCheckText = 'For your security, please enter your password again to continue.';

export interface PasswordCheckDialogProps {
  opened: boolean;
  onClose: () => void;
  confirmLabel: string;
  confirmColor?: string;
  pending: boolean;
  /** The last failure of `onSubmit`'s action; a wrong password shows under the field. */
  error: unknown;
  onSubmit: (password: string) => void;
}

/** Asks for the password again before an action the server allows only from a recent sign-in
 *  (docs/decisions/session-timeouts.md). */
export function PasswordCheckDialog({
  opened,
  onClose,
  confirmLabel,
  confirmColor,
  pending,
  error,
  onSubmit,
}: PasswordCheckDialogProps) {
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);
  const fieldError = error instanceof ApiError ? error.fieldErrors.password?.[0] : undefined;
  const close = () => {
    setPassword('');
    setMissing(false);
    onClose();
  };
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setMissing(password === '');
    if (password !== '') onSubmit(password);
  };
  return (
    <Dialog
      opened={opened}
      onClose={close}
      title="Confirm with your password"
      closeOnClickOutside={!pending}
      closeOnEscape={!pending}
      centered
    >
      <form onSubmit={submit} noValidate>
        <Text mb="sm">{passwordCheckText}</Text>
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          data-autofocus
          value={password}
          onChange={(event) => {
            setPassword(event.currentTarget.value);
          }}
          error={missing ? 'Password is required.' : fieldError}
        />
        {error !== null && fieldError === undefined && (
          <Alert color="red" variant="outline" mt="sm">
            {errorMessage(error)}
          </Alert>
        )}
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={close} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" color={confirmColor} loading={pending}>
            {confirmLabel}
          </Button>
        </Group>
      </form>
    </Dialog>
  );
}
