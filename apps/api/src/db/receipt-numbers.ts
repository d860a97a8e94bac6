import { sql, type SQL } from 'drizzle-orm';

/** What every receipt number starts with. */
export const receiptNumberPrefix = 'DC';

/**
 * The next receipt number, `DC-<year paid>-<running number>` (at least six digits), taken from
 * the `receipt_numbers` sequence inside the statement that records the payment, so two payments
 * completing at once never share one (docs/decisions/receipts.md).
 */
export function nextReceiptNumber(paidAt: Date): SQL<string> {
  const prefix = `${receiptNumberPrefix}-${String(paidAt.getUTCFullYear())}-`;
  // The value is read once and padded without cutting: lpad alone would shorten a seventh digit.
  return sql<string>`(select ${prefix} || lpad(n::text, greatest(6, length(n::text)), '0') from (select nextval('receipt_numbers') as n) as next)`;
}
