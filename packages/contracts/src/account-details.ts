import { z } from 'zod';
import { isValidPhoneNumber } from 'libphonenumber-js';
import { administrativeSex, email, password, username } from './account';
import { requestCalendarDate } from './oral-photo';
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

/** '' or null clears an optional field, absent keeps it; any other value gets the field's own
 *  message (a union with '' would answer a bare 'Invalid input'). */
const clearable = <T extends z.ZodType>(field: T) =>
  z.preprocess((value) => (value === '' ? null : value), field.nullable()).optional();

export const registerRequest = z.object({ email, phone: optionalPhone, username, password });
export type RegisterRequest = z.infer<typeof registerRequest>;

const personName = (label: string) =>
  singleLineText()
    .trim()
    .max(100, `${label} must be at most 100 characters.`)
    .transform((value) => (value === '' ? null : value));

export const birthDateInFutureMessage = 'Date of birth cannot be in the future.';

/** PUT /api/account/: the name, phone and health record details change; other fields are ignored
 *  (docs/product/accounts.md#account-calls). */
export const updateAccountRequest = z.object({
  username: username.optional(),
  phone: optionalPhone,
  given_name: personName('Given name').nullish(),
  family_name: personName('Family name').nullish(),
  birth_date: clearable(requestCalendarDate),
  sex: clearable(administrativeSex),
});
export type UpdateAccountRequest = z.infer<typeof updateAccountRequest>;
