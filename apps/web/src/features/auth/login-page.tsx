import { useEffect, useState } from 'react';
import { Alert, Anchor, Divider, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, useWatch } from 'react-hook-form';
import { Link, Navigate, useLocation } from 'react-router';
import { paths } from '#web/config/paths';
import { PublicPage } from '#web/components/public-page';
import { errorMessage } from '#web/lib/api-client';
import { usePublicConfig } from '#web/lib/public-config';
import { useSession } from '#web/lib/session';
import { clearSignOutNotice, signOutNotice } from '#web/lib/sign-out-notice';
import { useLogin } from './api/login';
import { AgreementCheckbox } from './components/agreement-checkbox';
import { EmailField } from './components/email-field';
import { useFormPopup } from './components/form-popup';
import { LoginCodeStep } from './components/login-code-step';
import { PasskeySignIn } from './components/passkey-sign-in';
import { SocialSignIn } from './components/social-sign-in';
import { SubmitButton } from './components/submit-button';
import { loginForm } from './form-schemas';
import { returnPath } from './return-path';

function LoginFooter() {
  const config = usePublicConfig();
  if (!config.data) return null;
  const { customer_service_email: serviceEmail, company_name: companyName } = config.data;
  return (
    <>
      <Text size="sm">
        Need help? Contact customer service at{' '}
        <Anchor href={`mailto:${serviceEmail}`} inherit>
          {serviceEmail}
        </Anchor>
      </Text>
      {/* The login screen has a fixed 2024 copyright line (docs/product/accounts.md#log-in). */}
      <Text size="sm">© 2024 {companyName}</Text>
    </>
  );
}

/** Log in (docs/product/accounts.md#log-in): validated after the first submit, errors in the
 *  message dialog, and straight on to the page the user came from when a session already exists. */
export default function LoginPage() {
  const session = useSession();
  const location = useLocation();
  const login = useLogin();
  const popup = useFormPopup();
  const {
    register,
    handleSubmit,
    control,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(loginForm),
    defaultValues: { email: '', password: '', terms: false },
  });
  const termsAgreed = useWatch({ control, name: 'terms' });
  // Why the patient is here (session timed out, account created or deleted, password reset):
  // shown on this visit only.
  const [notice] = useState(signOutNotice);
  useEffect(clearSignOutNotice, []);
  // Set when the password was right and the account asks for its second step.
  const [mfaToken, setMfaToken] = useState<string | null>(null);

  if (session.access !== null) return <Navigate to={returnPath(location.state)} replace />;

  const onSubmit = handleSubmit(({ email, password }) => {
    login.mutate(
      { email, password },
      {
        onSuccess: (answer) => {
          if ('mfa_token' in answer) setMfaToken(answer.mfa_token);
        },
        onError: (error) => {
          popup.show({ title: 'Log in failed', text: errorMessage(error) });
        },
      },
    );
  });

  if (mfaToken !== null) {
    return (
      <PublicPage title="Log in" footer={<LoginFooter />}>
        <LoginCodeStep
          mfaToken={mfaToken}
          onBack={() => {
            setMfaToken(null);
          }}
        />
      </PublicPage>
    );
  }

  return (
    <PublicPage title="Log in" footer={<LoginFooter />}>
      {notice !== null && (
        <Alert color="blue" variant="light" mb="md" title={notice.title}>
          {notice.text}
        </Alert>
      )}
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <EmailField
            autoComplete="username webauthn"
            {...register('email')}
            error={errors.email?.message}
          />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            {...register('password')}
            error={errors.password?.message}
          />
          <AgreementCheckbox
            termsName="Terms and Conditions"
            {...register('terms')}
            error={errors.terms?.message}
          />
          <SubmitButton pending={login.isPending}>Log in</SubmitButton>
          <Group justify="space-between">
            <Anchor component={Link} to={paths.forgetPassword} size="sm">
              Forgot Password?
            </Anchor>
            <Anchor component={Link} to={paths.signup} size="sm">
              Sign up
            </Anchor>
          </Group>
        </Stack>
      </form>
      <Divider my="md" label="or" labelPosition="center" />
      <Stack gap="xs">
        <PasskeySignIn termsAgreed={termsAgreed} />
        <SocialSignIn termsAgreed={termsAgreed} />
      </Stack>
      {popup.dialog}
    </PublicPage>
  );
}
