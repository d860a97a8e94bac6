import { z } from 'zod';
import {
  currentPasswordRequiredMessage,
  email,
  nativeLoginRequest,
  password,
  registerRequest,
  termsNotAgreedMessage,
} from '@dental/contracts';

// The forms reuse the contracts' rules and put a plain "required" message in front of them.
const requiredEmail = z.string().trim().min(1, 'Email is required.').pipe(email);
const requiredNewPassword = z.string().min(1, 'Password is required.').pipe(password);
const agreement = z.boolean().refine((agreed) => agreed, termsNotAgreedMessage);

export const loginForm = z.object({
  email: requiredEmail,
  password: nativeLoginRequest.shape.password,
  terms: agreement,
});

/** Sign-up (docs/product/accounts.md#sign-up); a password mismatch is reported in a popup, not
 *  under the field. */
export const signupForm = registerRequest.extend({
  email: requiredEmail,
  password: requiredNewPassword,
  confirmPassword: z.string().min(1, 'Confirm Password is required.'),
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
