import { formatReceiptAmount, formatReceiptCard, membershipSalesFinal } from '@dental/contracts';
import { AccessiblePdf, paperSizeFor } from '#api/lib/accessible-pdf';
import type { ReceiptHolder, StoredReceipt } from './receipts.repository';

export interface ReceiptPdfInput {
  receipt: StoredReceipt;
  holder: ReceiptHolder;
  companyName: string;
  /** The member's locale (BCP 47): the paper, and the date's order for English ones. */
  locale: string;
}

/** The text is English; an English locale also orders the date ('29 November 2026'). */
function dateLocale(locale: string): string {
  try {
    return new Intl.Locale(locale).language === 'en' ? locale : 'en-US';
  } catch {
    return 'en-US';
  }
}

/** A receipt as a tagged PDF, written through the product's one PDF writer. */
export function receiptPdf({ receipt, holder, companyName, locale }: ReceiptPdfInput) {
  const paid = receipt.paidAt.toLocaleDateString(dateLocale(locale), {
    dateStyle: 'long',
    timeZone: 'UTC',
  });
  const card = formatReceiptCard(receipt.cardBrand, receipt.cardLast4);
  const pdf = new AccessiblePdf({
    title: `Receipt ${receipt.number}`,
    lang: 'en',
    paper: paperSizeFor(locale),
  })
    .heading(companyName, 1)
    .heading('Receipt', 2)
    .list([
      `Receipt number: ${receipt.number}`,
      `Date paid: ${paid}`,
      `Item: ${receipt.description}`,
      `Amount paid: ${formatReceiptAmount(receipt.amountCents, receipt.currency)}`,
      `Payment method: ${card ?? 'Not a card'}`,
    ])
    .heading('Billed to', 2)
    .list([`Username: ${holder.username}`, `E-mail: ${holder.email}`]);
  if (receipt.kind === 'membership') pdf.paragraph(membershipSalesFinal);
  return pdf.finish();
}
