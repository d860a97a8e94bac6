import { lazy, Suspense, useState } from 'react';

export type LegalDocument = 'terms' | 'privacy';

export interface LegalModalsProps {
  opened: LegalDocument | null;
  onClose: () => void;
}

// The texts and the markdown renderer are a chunk of their own, fetched when a dialog is first
// opened: the sign-in and sign-up screens only show the links to them.
const LegalDialogs = lazy(() =>
  import('./legal-dialogs').then((module) => ({ default: module.LegalDialogs })),
);

/** The Terms and the Privacy dialogs (docs/product/accounts.md#legal-texts), loaded on first use
 *  and kept mounted after, so that closing one still plays its transition. */
export function LegalModals(props: LegalModalsProps) {
  const [wanted, setWanted] = useState(false);
  if (props.opened !== null && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <LegalDialogs {...props} />
    </Suspense>
  );
}
