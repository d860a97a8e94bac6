import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { IconKey } from '@tabler/icons-react';
import { browserSupportsWebAuthn } from '@simplewebauthn/browser';
import { confirmTotpRequest } from '@dental/contracts';
import { CodeField } from '#web/components/code-field';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { applyFieldErrors } from '../apply-field-errors';
import { useLoginWithCode } from '../api/login';
import { useLoginWithPasskey } from '../api/passkeys';
import { SubmitButton } from './submit-button';

/** The second step of a login (docs/decisions/second-factor.md): a code from the authenticator
 *  app or a recovery code, or one of the member's passkeys (docs/decisions/passkeys.md), within 5
 *  minutes of the password. */
export function LoginCodeStep({ mfaToken, onBack }: { mfaToken: string; onBack: () => void }) {
  const loginWithCode = useLoginWithCode();
  const loginWithPasskey = useLoginWithPasskey();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(confirmTotpRequest), defaultValues: { code: '' } });
  const onSubmit = handleSubmit(({ code }) => {
    loginWithPasskey.reset();
    loginWithCode.mutate(
      { mfaToken, code },
      {
        onError: (error) => {
          applyFieldErrors(error, ['code'], setError);
        },
      },
    );
  });
  const error = loginWithCode.error ?? loginWithPasskey.error;
  const fieldError = error instanceof ApiError && error.fieldErrors.code !== undefined;
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="md">
        <Text>
          Two-step verification is on for this account. Enter the 6-digit code from your
          authenticator app, or one of your recovery codes.
        </Text>
        <CodeField autoFocus {...register('code')} error={errors.code?.message} />
        {error !== null && !fieldError && (
          <Alert color="red" variant="outline">
            {errorMessage(error)}
          </Alert>
        )}
        <SubmitButton pending={loginWithCode.isPending}>Verify</SubmitButton>
        {browserSupportsWebAuthn() && (
          <Button
            variant="default"
            fullWidth
            leftSection={<IconKey size={18} aria-hidden />}
            loading={loginWithPasskey.isPending}
            disabled={loginWithCode.isPending}
            onClick={() => {
              loginWithCode.reset();
              loginWithPasskey.mutate(mfaToken);
            }}
          >
            Use a passkey instead
          </Button>
        )}
        <Anchor component="button" type="button" size="sm" onClick={onBack}>
          Back to log in
        </Anchor>
      </Stack>
    </form>
  );
}
