import { z } from 'zod';
import {
  currentPasswordRequiredMessage,
  email,
  nativeLoginRequest,
  password,
  termsNotAgreedMessage,
} from '@dental/contracts';

// The forms reuse the contracts' rules and put a plain "required" message in front of them.
export const requiredEmail = z.string().trim().min(1, 'Email is required.').pipe(email);
export const requiredNewPassword = z.string().min(1, 'Password is required.').pipe(password);
export const agreement = z.boolean().refine((agreed) => agreed, termsNotAgreedMessage);

export const loginForm = z.object({
  email: requiredEmail,
  password: nativeLoginRequest.shape.password,
  terms: agreement,
});

export const forgetPasswordForm = z.object({ email: requiredEmail });

export const resetPasswordForm = z.object({
  password: requiredNewPassword,
  confirmPassword: z.string().min(1, 'Confirm New Password is required.'),
});

/** Change password while signed in: the current password, then the reset form's two fields. */
export const changePasswordForm = resetPasswordForm.extend({
  current_password: z.string().min(1, currentPasswordRequiredMessage),
});
