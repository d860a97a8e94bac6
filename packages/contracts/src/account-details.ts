import { z } from 'zod';
import { isValidPhoneNumber } from 'libphonenumber-js';
import { email, password, username } from './account';
import { singleLineText } from './text';

// The requests that carry a phone number, apart from the rest of the account's contracts: the
// phone check brings libphonenumber-js and its country data, which only the screens with a phone
// field need (docs/decisions/first-paint-shell.md).

/** An international phone number; stored as E.164. */
export const phone = singleLineText()
  .trim()
  .refine((value) => isValidPhoneNumber(value), 'Enter a valid phone number.');

/** Phone is optional at sign-up (docs/product/accounts.md#sign-up); '' or absent means none. */
const optionalPhone = z.union([z.literal('').transform(() => null), phone]).nullish();

export const registerRequest = z.object({ email, phone: optionalPhone, username, password });
export type RegisterRequest = z.infer<typeof registerRequest>;

/** PUT /api/account/: only username and phone change; other fields are ignored
 *  (docs/product/accounts.md#account-calls). */
export const updateAccountRequest = z.object({
  username: username.optional(),
  phone: optionalPhone,
});
export type UpdateAccountRequest = z.infer<typeof updateAccountRequest>;
