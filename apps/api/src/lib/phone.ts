import { parsePhoneNumberWithError } from 'libphonenumber-js';

/** Phones are stored in E.164 (the schema has already checked that the number is valid). */
export function toE164(phone: string | null | undefined): string | null | undefined {
  if (phone === undefined || phone === null) return phone;
  return parsePhoneNumberWithError(phone).number;
}
