import { useEffect, useState } from 'react';
import { Alert, Button, Code, Group, Image, List, PasswordInput, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toString as qrCodeSvg } from 'qrcode';
import { confirmTotpRequest, removeTotpRequest, type TotpEnrolment } from '@dental/contracts';
import { CodeField } from '#web/components/code-field';
import { Dialog } from '#web/components/dialog';
import { FormActions } from '#web/components/form-actions';
import { PasswordCheckDialog } from '#web/components/password-check-dialog';
import { Section } from '#web/components/section';
import { errorMessage } from '#web/lib/api-client';
import { useSecondFactorStatus } from '#web/lib/step-up';
import { applyFieldErrors } from '../apply-field-errors';
import { useConfirmTotp, useRemoveTotp, useStartTotp } from '../api/second-factor';
import { RecoveryCodesNotice } from './recovery-codes-notice';

/** The secret in groups of four, as authenticator apps ask for it when typed in. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/** The otpauth:// URI as a QR code, drawn here: the secret never leaves the page. */
function QrCode({ uri }: { uri: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void qrCodeSvg(uri, { type: 'svg', margin: 2 }).then((drawn) => {
      if (current) setSvg(drawn);
    });
    return () => {
      current = false;
    };
  }, [uri]);
  if (svg === null) return null;
  return (
    <Image
      src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
      alt="QR code to scan with your authenticator app"
      w={180}
      h={180}
      bg="white"
    />
  );
}

/** Step 2 of turning on: scan, then the first code; answers the recovery codes. */
function Enrolment({
  enrolment,
  onCancel,
  onDone,
}: {
  enrolment: TotpEnrolment;
  onCancel: () => void;
  onDone: (codes: string[]) => void;
}) {
  const confirmTotp = useConfirmTotp();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(confirmTotpRequest), defaultValues: { code: '' } });
  const onSubmit = handleSubmit(({ code }) => {
    confirmTotp.mutate(code, {
      onSuccess: ({ recovery_codes }) => {
        onDone(recovery_codes);
      },
      onError: (error) => {
        applyFieldErrors(error, ['code'], setError);
      },
    });
  });
  const otherError = confirmTotp.isError && errors.code === undefined;
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack gap="sm">
        <Text>
          1. Scan this QR code with an authenticator app on your phone, or type in the key.
        </Text>
        <QrCode uri={enrolment.otpauth_uri} />
        <Text>
          Key:{' '}
          <Code data-testid="totp-secret" style={{ overflowWrap: 'anywhere' }}>
            {grouped(enrolment.secret)}
          </Code>
        </Text>
        <Text>2. Enter the 6-digit code the app shows.</Text>
        <CodeField {...register('code')} error={errors.code?.message} />
        {otherError && (
          <Alert color="red" variant="outline">
            {errorMessage(confirmTotp.error)}
          </Alert>
        )}
        <FormActions submitLabel="Turn on" pending={confirmTotp.isPending} onCancel={onCancel} />
      </Stack>
    </form>
  );
}

/** Turning off asks for the password and a code (or a recovery code). */
function TurnOffDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const removeTotp = useRemoveTotp();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(removeTotpRequest),
    defaultValues: { password: '', code: '' },
  });
  const close = () => {
    reset();
    removeTotp.reset();
    onClose();
  };
  const onSubmit = handleSubmit((body) => {
    // The password also re-checks the session, which turning off needs when the sign-in is old.
    removeTotp.mutate(
      { ...body, proof: { password: body.password } },
      {
        onSuccess: close,
        onError: (error) => {
          applyFieldErrors(error, ['password', 'code'], setError);
        },
      },
    );
  });
  const otherError =
    removeTotp.isError && errors.password === undefined && errors.code === undefined;
  return (
    <Dialog
      opened={opened}
      onClose={close}
      title="Turn off two-step verification"
      closeOnClickOutside={!removeTotp.isPending}
      closeOnEscape={!removeTotp.isPending}
      centered
    >
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="sm">
          <Text>
            Signing in will ask only for your password. Enter your password and a code from your
            authenticator app, or a recovery code.
          </Text>
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            data-autofocus
            {...register('password')}
            error={errors.password?.message}
          />
          <CodeField {...register('code')} error={errors.code?.message} />
          {otherError && (
            <Alert color="red" variant="outline">
              {errorMessage(removeTotp.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={removeTotp.isPending}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={removeTotp.isPending}>
              Turn off
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}

/** The Profile's 'Two-step verification' (docs/decisions/second-factor.md): an authenticator app
 *  turned on with the password, a scan and a first code; ten recovery codes shown once. */
function TwoStep() {
  const status = useSecondFactorStatus();
  const startTotp = useStartTotp();
  const [asking, setAsking] = useState(false);
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [turningOff, setTurningOff] = useState(false);

  if (codes !== null) {
    return (
      <RecoveryCodesNotice
        codes={codes}
        onDone={() => {
          setCodes(null);
        }}
      />
    );
  }
  if (enrolment !== null) {
    return (
      <Enrolment
        enrolment={enrolment}
        onCancel={() => {
          setEnrolment(null);
        }}
        onDone={(recoveryCodes) => {
          setEnrolment(null);
          setCodes(recoveryCodes);
        }}
      />
    );
  }
  if (status.isError) {
    return (
      <Alert color="red" variant="outline">
        {errorMessage(status.error)}
      </Alert>
    );
  }
  if (status.data === undefined) return <Text c="dimmed">Loading…</Text>;
  if (status.data.totp_enabled) {
    const left = status.data.recovery_codes_left;
    return (
      <Stack gap="sm" align="flex-start">
        <Text>
          Two-step verification is on: signing in asks for a code from your authenticator app after
          your password.
        </Text>
        <List>
          <List.Item>{left} of 10 recovery codes left.</List.Item>
        </List>
        <Button
          color="red"
          variant="outline"
          onClick={() => {
            setTurningOff(true);
          }}
        >
          Turn off two-step verification
        </Button>
        <TurnOffDialog
          opened={turningOff}
          onClose={() => {
            setTurningOff(false);
          }}
        />
      </Stack>
    );
  }
  return (
    <Stack gap="sm" align="flex-start">
      <Text>
        Protect your account with a second step when you sign in: a code from an authenticator app
        on your phone. A passkey also counts as a second step.
      </Text>
      <Button
        onClick={() => {
          startTotp.reset();
          setAsking(true);
        }}
      >
        Turn on two-step verification
      </Button>
      <PasswordCheckDialog
        opened={asking}
        onClose={() => {
          setAsking(false);
        }}
        confirmLabel="Continue"
        pending={startTotp.isPending}
        error={startTotp.error}
        onSubmit={(password) => {
          startTotp.mutate(password, {
            onSuccess: (started) => {
              setAsking(false);
              setEnrolment(started);
            },
          });
        }}
      />
    </Stack>
  );
}

export function TwoStepSection() {
  return (
    <Section title="Two-step verification">
      <TwoStep />
    </Section>
  );
}
