import { z } from 'zod';

/** Receipts of the member's payments (docs/product/receipts.md). */
export const receiptPaths = {
  list: '/api/receipts/',
} as const;

/** What was paid for: a membership plan, or an order from the shop. */
export const receiptKinds = ['membership', 'order'] as const;
export const receiptKind = z.enum(receiptKinds);
export type ReceiptKind = z.infer<typeof receiptKind>;

export const receipt = z.object({
  id: z.uuid(),
  /** Human-readable and unique across kinds, e.g. 'DC-2026-000123'. */
  number: z.string().regex(/^DC-\d{4}-\d{6,}$/),
  kind: receiptKind,
  /** What was bought, e.g. 'Gold membership, 1 year'. */
  description: z.string(),
  amount_cents: z.number().int().nonnegative(),
  /** ISO 4217, e.g. 'USD'. */
  currency: z.string().regex(/^[A-Z]{3}$/),
  paid_at: z.iso.datetime(),
  /** As the payment provider names it, e.g. 'visa'; null when no card paid. */
  card_brand: z.string().nullable(),
  card_last4: z
    .string()
    .regex(/^\d{4}$/)
    .nullable(),
  /** A short-lived signed link to the receipt as a PDF (a download, no bearer needed). */
  download_url: z.string(),
});
export type Receipt = z.infer<typeof receipt>;

/** The member's receipts, newest first. */
export const receiptList = z.object({ results: z.array(receipt) });
export type ReceiptList = z.infer<typeof receiptList>;

/** The words a receipt gives its amount: '$29.99 USD'. */
export function formatReceiptAmount(amountCents: number, currency: string): string {
  const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(
    amountCents / 100,
  );
  return `${amount} ${currency}`;
}

/** The card as a receipt shows it: 'Visa •••• 4242'; null when no card paid. */
export function formatReceiptCard(brand: string | null, last4: string | null): string | null {
  if (brand === null || last4 === null) return null;
  return `${brand.charAt(0).toUpperCase()}${brand.slice(1)} •••• ${last4}`;
}
