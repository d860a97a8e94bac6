/** The legal texts a dialog can show (docs/product/accounts.md#legal-texts). Apart from the
 *  dialogs, which are a lazily loaded chunk, and from their loader, which both need these. */
export type LegalDocument = 'terms' | 'privacy';

export interface LegalModalsProps {
  opened: LegalDocument | null;
  onClose: () => void;
}
