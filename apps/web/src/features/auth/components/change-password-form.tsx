import { PasswordInput, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Section } from '#web/components/section';
import { errorMessage } from '#web/lib/api-client';
import { useChangePassword } from '../api/sessions';
import { applyFieldErrors } from '../apply-field-errors';
import { changePasswordForm } from '../form-schemas';
import { useFormPopup } from './form-popup';
import { NewPasswordFields } from './new-password-fields';
import { SubmitButton } from './submit-button';

/**
 * Change password while signed in (docs/product/accounts.md#password-and-devices): the current
 * password, then the new one twice with the reset's rules and mismatch popup. The other devices
 * are signed out; this one stays signed in.
 */
export function ChangePasswordForm() {
  const changePassword = useChangePassword();
  const popup = useFormPopup();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm({
    resolver: zodResolver(changePasswordForm),
    defaultValues: { current_password: '', password: '', confirmPassword: '' },
  });

  const onSubmit = handleSubmit(({ current_password, password, confirmPassword }) => {
    if (popup.passwordsDiffer(password, confirmPassword)) return;
    changePassword.mutate(
      { current_password, password, confirm_password: confirmPassword },
      {
        onSuccess: ({ message }) => {
          reset();
          notifications.show({ color: 'dental', message });
        },
        onError: (error) => {
          applyFieldErrors(error, ['current_password', 'password'], setError);
          popup.show({ title: 'Password not changed', text: errorMessage(error) });
        },
      },
    );
  });

  return (
    <Section title="Change password">
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack gap="md">
          <PasswordInput
            label="Current Password"
            autoComplete="current-password"
            required
            {...register('current_password')}
            error={errors.current_password?.message}
          />
          <NewPasswordFields
            label="New Password"
            password={register('password')}
            confirmPassword={register('confirmPassword')}
            errors={errors}
          />
          <SubmitButton pending={changePassword.isPending}>Change password</SubmitButton>
        </Stack>
      </form>
      {popup.dialog}
    </Section>
  );
}
