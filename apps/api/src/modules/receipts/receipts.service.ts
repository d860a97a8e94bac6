import type { Receipt, ReceiptList } from '@dental/contracts';
import { NotFound } from '#api/domain-errors';
import type { SignedLinks } from '#api/lib/signed-links';
import { receiptPdf } from './receipt-pdf';
import type { ReceiptsRepository, StoredReceipt } from './receipts.repository';

/** Where a receipt's PDF is served: `<path><member id>/<receipt id>/pdf/?…&sig=…`. */
export const receiptPdfPath = '/api/receipts/';

export const receiptNotFoundMessage = 'This receipt was not found.';

/** The locale of the first language an Accept-Language header names; 'en-US' without one. */
export function localeOf(acceptLanguage: string | undefined): string {
  const first = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim();
  try {
    return first === undefined || first === '' || first === '*'
      ? 'en-US'
      : new Intl.Locale(first).toString();
  } catch {
    return 'en-US';
  }
}

/** The signed part of a PDF link: whose receipt, and which. */
const pdfKey = (memberId: string, receiptId: string) => `${memberId}/${receiptId}/pdf/`;

/**
 * Receipts of the member's payments and their PDFs (docs/product/receipts.md). The PDF is a
 * signed link like every other download (docs/decisions/signed-file-links.md): the link names
 * the member, so it opens only that member's receipt.
 */
export class ReceiptsService {
  constructor(
    private readonly repository: ReceiptsRepository,
    private readonly links: SignedLinks,
    private readonly companyName: string,
  ) {}

  async list(memberId: string): Promise<ReceiptList> {
    const rows = await this.repository.list(memberId);
    return { results: rows.map((row) => this.answer(memberId, row)) };
  }

  private answer(memberId: string, row: StoredReceipt): Receipt {
    return {
      id: row.id,
      number: row.number,
      kind: row.kind,
      description: row.description,
      amount_cents: row.amountCents,
      currency: row.currency,
      paid_at: row.paidAt.toISOString(),
      card_brand: row.cardBrand,
      card_last4: row.cardLast4,
      download_url: this.links.signAt(receiptPdfPath, {
        key: pdfKey(memberId, row.id),
        contentType: 'application/pdf',
        disposition: 'attachment',
        fileName: `Receipt ${row.number}.pdf`,
      }),
    };
  }

  /**
   * The PDF a signed link names (403 for a link altered or expired), while the receipt is the
   * linked member's and the account is active (404 otherwise), on the paper of `locale`.
   */
  async pdf(
    memberId: string,
    receiptId: string,
    query: Readonly<Record<string, unknown>>,
    locale: string,
  ) {
    const file = this.links.verify(pdfKey(memberId, receiptId), query);
    const [holder, receipt] = await Promise.all([
      this.repository.activeHolder(memberId),
      this.repository.find(memberId, receiptId),
    ]);
    if (holder === undefined || receipt === undefined) throw new NotFound(receiptNotFoundMessage);
    const bytes = await receiptPdf({ receipt, holder, companyName: this.companyName, locale });
    return { file, bytes };
  }
}
