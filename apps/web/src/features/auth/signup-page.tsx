import { Anchor, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { PhoneField } from '#web/components/phone-field';
import { PublicPage } from '#web/components/public-page';
import { paths } from '#web/config/paths';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { usePublicConfig } from '#web/lib/public-config';
import { leaveLoginNotice } from '#web/lib/sign-out-notice';
import { useRegister } from './api/register';
import { AgreementCheckbox } from './components/agreement-checkbox';
import { EmailField } from './components/email-field';
import { useFormPopup } from './components/form-popup';
import { NewPasswordFields } from './components/new-password-fields';
import { SubmitButton } from './components/submit-button';
import { applyFieldErrors } from './apply-field-errors';
import { signupForm } from './signup-form-schema';

/** The server's refusal; a taken address also tells the way back into a deleted account, in the
 *  same words for every taken address so that no more is given away than that it is taken
 *  (docs/decisions/patient-grade-defects.md). */
function signUpRefusal(error: unknown, serviceEmail: string | undefined): string {
  const taken = error instanceof ApiError && error.status === 409;
  if (!taken || serviceEmail === undefined) return errorMessage(error);
  return `${errorMessage(error)} If you deleted your account, customer service at ${serviceEmail} can reactivate it.`;
}

/** Sign up (docs/product/accounts.md#sign-up): a mismatch of the two passwords and the server's
 *  refusals are told in a popup; success leads to /login, replacing this page in the history. */
export default function SignupPage() {
  const navigate = useNavigate();
  const registration = useRegister();
  const popup = useFormPopup();
  const serviceEmail = usePublicConfig().data?.customer_service_email;
  const {
    register,
    handleSubmit,
    control,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(signupForm),
    defaultValues: {
      email: '',
      phone: '',
      username: '',
      password: '',
      confirmPassword: '',
      terms: false,
    },
  });

  const onSubmit = handleSubmit(({ email, phone, username, password, confirmPassword }) => {
    if (popup.passwordsDiffer(password, confirmPassword)) return;
    registration.mutate(
      { email, phone, username, password },
      {
        onSuccess: () => {
          leaveLoginNotice({
            title: 'Account created',
            text: 'Your account is ready. Please log in.',
          });
          void navigate(paths.login, { replace: true });
        },
        onError: (error) => {
          applyFieldErrors(error, ['email', 'phone', 'username', 'password'], setError);
          popup.show({ title: 'Sign up failed', text: signUpRefusal(error, serviceEmail) });
        },
      },
    );
  });

  return (
    <PublicPage title="Sign up">
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <EmailField {...register('email')} error={errors.email?.message} />
          <Controller
            control={control}
            name="phone"
            render={({ field, fieldState }) => (
              <PhoneField
                value={field.value}
                onChange={field.onChange}
                onBlur={field.onBlur}
                error={fieldState.error?.message}
              />
            )}
          />
          <TextInput
            label="Name"
            autoComplete="name"
            required
            {...register('username')}
            error={errors.username?.message}
          />
          <NewPasswordFields
            label="Password"
            password={register('password')}
            confirmPassword={register('confirmPassword')}
            errors={errors}
          />
          <AgreementCheckbox
            termsName="Terms of Service"
            {...register('terms')}
            error={errors.terms?.message}
          />
          <SubmitButton pending={registration.isPending}>Sign up</SubmitButton>
          <Text size="sm" ta="center">
            Already have an account?{' '}
            <Anchor component={Link} to={paths.login} inherit>
              Log in
            </Anchor>
          </Text>
        </Stack>
      </form>
      {popup.dialog}
    </PublicPage>
  );
}
