import { useState } from 'react';
import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { zodResolver } from '@hookform/resolvers/zod';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { passwordMismatchMessage } from '@dental/contracts';
import { MessageModal, type ModalMessage } from '../../components/message-modal';
import { PublicPage } from '../../components/public-page';
import { errorMessage } from '../../lib/api-client';
import { useRegister } from './api/register';
import { AgreementCheckbox } from './components/agreement-checkbox';
import { EmailField } from './components/email-field';
import { PhoneField } from './components/phone-field';
import { applyFieldErrors } from './apply-field-errors';
import { signupForm } from './form-schemas';

/** Sign up (SPEC §2, §5): a mismatch of the two passwords and the server's refusals are told in a
 *  popup; success leads to /login, replacing this page in the history. */
export default function SignupPage() {
  const navigate = useNavigate();
  const registration = useRegister();
  const [popup, setPopup] = useState<ModalMessage | null>(null);
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
    if (password !== confirmPassword) {
      setPopup({ title: 'Check your password', text: passwordMismatchMessage });
      return;
    }
    registration.mutate(
      { email, phone, username, password },
      {
        onSuccess: () => {
          notifications.show({
            color: 'dental',
            message: 'Your account is ready. Please log in.',
          });
          void navigate('/login', { replace: true });
        },
        onError: (error) => {
          applyFieldErrors(error, ['email', 'phone', 'username', 'password'], setError);
          setPopup({ title: 'Sign up failed', text: errorMessage(error) });
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
          <PasswordInput
            label="Password"
            autoComplete="new-password"
            required
            {...register('password')}
            error={errors.password?.message}
          />
          <PasswordInput
            label="Confirm Password"
            autoComplete="new-password"
            required
            {...register('confirmPassword')}
            error={errors.confirmPassword?.message}
          />
          <AgreementCheckbox
            termsName="Terms of Service"
            {...register('terms')}
            error={errors.terms?.message}
          />
          <Button type="submit" loading={registration.isPending} fullWidth>
            Sign up
          </Button>
          <Text size="sm" ta="center">
            Already have an account?{' '}
            <Anchor component={Link} to="/login" inherit>
              Log in
            </Anchor>
          </Text>
        </Stack>
      </form>
      <MessageModal
        message={popup}
        onClose={() => {
          setPopup(null);
        }}
      />
    </PublicPage>
  );
}
