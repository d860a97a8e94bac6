import { LinkSection } from '#web/components/link-section';
import { paths } from '#web/config/paths';

/** The way to the member's receipts (docs/product/receipts.md). */
export function ReceiptsSection() {
  return (
    <LinkSection title="Receipts" to={paths.accountReceipts} linkText="Receipts">
      A receipt for every payment, to download as a PDF.
    </LinkSection>
  );
}
