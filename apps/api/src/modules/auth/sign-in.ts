import type { UserRow } from '#api/db/schema';

/** What the sign-in services share: a leaf, so that none of them imports another for a message
 *  or a type (docs/decisions/api-modules.md). */

/** Where a sign-in comes from, kept with the session so the member can recognise it. */
export interface SignInContext {
  userAgent: string | null;
  ip: string | null;
}

/** One answer for an unknown e-mail and a wrong password, so neither is revealed. */
export const wrongCredentialsMessage = 'The e-mail address or password is incorrect.';

export const wrongPasswordMessage = 'The password is incorrect.';

export function deactivatedMessage(customerServiceEmail: string): string {
  return `This account has been deleted and deactivated. To reactivate it, please contact customer service at ${customerServiceEmail}.`;
}

/** docs/product/accounts.md#deactivation: a deactivated account keeps its data but may do nothing
 *  until reactivated. */
export function isActiveMember(row: UserRow | undefined): row is UserRow {
  return row?.deactivatedAt === null;
}
