import { lazy, Suspense, useEffect, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { Alert, Anchor, Divider, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { Link, Navigate, useLocation } from 'react-router';
import { paths } from '#web/config/paths';
import { PageSpinner } from '#web/components/page-spinner';
import { PublicPage } from '#web/components/public-page';
import { errorMessage } from '#web/lib/api-client';
import { usePublicConfig } from '#web/lib/public-config';
import { useSession } from '#web/lib/session';
import { loadChunk } from '#web/lib/lazy-route';
import { clearSignOutNotice, signOutNotice } from '#web/lib/sign-out-notice';
import { useLogin } from './api/login';
import { AgreementCheckbox } from './components/agreement-checkbox';
import { EmailField } from './components/email-field';
import { useFormPopup } from './components/form-popup';
import { PasskeySignIn } from './components/passkey-sign-in';
import { SocialSignIn } from './components/social-sign-in';
import { SubmitButton } from './components/submit-button';
import { loginForm } from './form-schemas';
import { returnPath } from './return-path';

// The second step is shown only to accounts with a second factor, after the password: its form
// (and react-hook-form with it) stays off the sign-in screen's first load
// (docs/decisions/first-paint-shell.md).
const LoginCodeStep = lazy(() =>
  loadChunk('login-code-step', () => import('./components/login-code-step')).then((module) => ({
    default: module.LoginCodeStep,
  })),
);

interface LoginValues {
  email: string;
  password: string;
  terms: boolean;
}
type LoginField = keyof LoginValues;

/** The first message of each field that breaks the form's rules. */
function loginErrors(values: LoginValues): Partial<Record<LoginField, string>> {
  const checked = loginForm.safeParse(values);
  const errors: Partial<Record<LoginField, string>> = {};
  for (const issue of checked.error?.issues ?? []) {
    const field = issue.path[0] as LoginField;
    errors[field] ??= issue.message;
  }
  return errors;
}

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
  const [values, setValues] = useState<LoginValues>({ email: '', password: '', terms: false });
  // Checked from the first submit on, then on every change.
  const [submitted, setSubmitted] = useState(false);
  const errors = submitted ? loginErrors(values) : {};
  const text = (name: 'email' | 'password') => ({
    name,
    error: errors[name],
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const { value } = event.currentTarget;
      setValues((current) => ({ ...current, [name]: value }));
    },
  });
  // Why the patient is here (session timed out, account created or deleted, password reset):
  // shown on this visit only.
  const [notice] = useState(signOutNotice);
  useEffect(clearSignOutNotice, []);
  // Set when the password was right and the account asks for its second step.
  const [mfaToken, setMfaToken] = useState<string | null>(null);

  if (session.access !== null) return <Navigate to={returnPath(location.state)} replace />;

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    const checked = loginForm.safeParse(values);
    if (!checked.success) {
      // As in the other forms, the first field to correct gets the focus (the issues come in the
      // form's order).
      const first = checked.error.issues[0]?.path[0] as LoginField | undefined;
      const input = first === undefined ? null : event.currentTarget.elements.namedItem(first);
      if (input instanceof HTMLInputElement) input.focus();
      return;
    }
    const { email, password } = checked.data;
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
  };

  if (mfaToken !== null) {
    return (
      <PublicPage title="Log in" footer={<LoginFooter />}>
        <Suspense fallback={<PageSpinner />}>
          <LoginCodeStep
            mfaToken={mfaToken}
            onBack={() => {
              setMfaToken(null);
            }}
          />
        </Suspense>
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
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <EmailField autoComplete="username webauthn" {...text('email')} />
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            {...text('password')}
          />
          <AgreementCheckbox
            termsName="Terms and Conditions"
            name="terms"
            error={errors.terms}
            checked={values.terms}
            onChange={(event) => {
              const { checked } = event.currentTarget;
              setValues((current) => ({ ...current, terms: checked }));
            }}
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
        <PasskeySignIn termsAgreed={values.terms} />
        <SocialSignIn termsAgreed={values.terms} />
      </Stack>
      {popup.dialog}
    </PublicPage>
  );
}
