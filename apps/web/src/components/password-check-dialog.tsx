import { useState, type SyntheticEvent } from 'react';
import { Alert, Anchor, Button, Group, PasswordInput, Text } from '@mantine/core';
import { problemTypes } from '@dental/contracts';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useSecondFactorStatus } from '#web/lib/step-up';
import { CodeField } from './code-field';
import { Dialog } from './dialog';

export const passwordCheckText = 'For your security, please enter your password again to continue.';

/** The server wants the password (or a code) again before it makes the change: the caller opens
 *  this dialog. Here rather than in lib/step-up.ts, which the sign-in screen loads. */
export function needsPassword(error: unknown): boolean {
  return error instanceof ApiError && error.type === problemTypes.reauthenticationRequired;
}

export interface PasswordCheckDialogProps {
  opened: boolean;
  onClose: () => void;
  confirmLabel: string;
  confirmColor?: string;
  pending: boolean;
  /** The last failure of `onSubmit`'s action; a wrong password shows under the field. */
  error: unknown;
  onSubmit: (password: string) => void;
  /** Given, a member with an authenticator app may confirm with a code instead
   *  (docs/decisions/second-factor.md). */
  onSubmitCode?: (code: string) => void;
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
  onSubmitCode,
}: PasswordCheckDialogProps) {
  const [value, setValue] = useState('');
  const [missing, setMissing] = useState(false);
  const [withCode, setWithCode] = useState(false);
  const secondFactor = useSecondFactorStatus(opened && onSubmitCode !== undefined);
  const codeAllowed = onSubmitCode !== undefined && secondFactor.data?.totp_enabled === true;
  const field = withCode ? 'code' : 'password';
  const fieldError = error instanceof ApiError ? error.fieldErrors[field]?.[0] : undefined;
  const close = () => {
    setValue('');
    setMissing(false);
    setWithCode(false);
    onClose();
  };
  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    setMissing(value === '');
    if (value === '') return;
    if (withCode) onSubmitCode?.(value);
    else onSubmit(value);
  };
  const onChange = (event: { currentTarget: HTMLInputElement }) => {
    setValue(event.currentTarget.value);
  };
  return (
    <Dialog
      opened={opened}
      onClose={close}
      title={withCode ? 'Confirm with a code' : 'Confirm with your password'}
      closeOnClickOutside={!pending}
      closeOnEscape={!pending}
      centered
    >
      <form onSubmit={submit} noValidate>
        <Text mb="sm">
          {withCode
            ? 'For your security, please enter a code from your authenticator app to continue.'
            : passwordCheckText}
        </Text>
        {withCode ? (
          <CodeField
            data-autofocus
            value={value}
            onChange={onChange}
            error={missing ? 'Enter the code.' : fieldError}
          />
        ) : (
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            data-autofocus
            value={value}
            onChange={onChange}
            error={missing ? 'Password is required.' : fieldError}
          />
        )}
        {codeAllowed && (
          <Anchor
            component="button"
            type="button"
            size="sm"
            mt="xs"
            onClick={() => {
              setWithCode(!withCode);
              setValue('');
              setMissing(false);
            }}
          >
            {withCode
              ? 'Use your password instead'
              : 'Use a code from your authenticator app instead'}
          </Anchor>
        )}
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
