import { PasswordInput } from '@mantine/core';
import type { FieldErrors, UseFormRegisterReturn } from 'react-hook-form';

export interface NewPasswordFieldsProps {
  /** 'Password' on sign-up, 'New Password' on reset; the second field is 'Confirm {label}'. */
  label: string;
  password: UseFormRegisterReturn<'password'>;
  confirmPassword: UseFormRegisterReturn<'confirmPassword'>;
  errors: FieldErrors<{ password: string; confirmPassword: string }>;
}

/** A new password typed twice. The two are compared on submit, and a mismatch is told in the
 *  form's popup rather than under the fields (docs/product/accounts.md#sign-up). */
export function NewPasswordFields({
  label,
  password,
  confirmPassword,
  errors,
}: NewPasswordFieldsProps) {
  return (
    <>
      <PasswordInput
        label={label}
        autoComplete="new-password"
        required
        {...password}
        error={errors.password?.message}
      />
      <PasswordInput
        label={`Confirm ${label}`}
        autoComplete="new-password"
        required
        {...confirmPassword}
        error={errors.confirmPassword?.message}
      />
    </>
  );
}
