import { z } from 'zod';
import { registerRequest } from '@dental/contracts';
import { agreement, requiredEmail, requiredNewPassword } from './form-schemas';

// Apart from the other forms: the sign-up request checks the phone number, whose library the
// sign-in screen does not need (docs/decisions/first-paint-shell.md).

/** Sign-up (docs/product/accounts.md#sign-up); a password mismatch is reported in a popup, not
 *  under the field. */
export const signupForm = registerRequest.extend({
  email: requiredEmail,
  password: requiredNewPassword,
  confirmPassword: z.string().min(1, 'Confirm Password is required.'),
  terms: agreement,
});
