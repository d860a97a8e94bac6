import { lazy, Suspense, useState } from 'react';
import { loadAllStyles } from '#web/lib/lazy-route';
import type { LegalModalsProps } from './legal-document';

// The texts and the markdown renderer are a chunk of their own, fetched when a dialog is first
// opened: the sign-in and sign-up screens only show the links to them.
// Their markdown uses components the sign-in screen's own styles do not cover.
const LegalDialogs = lazy(async () => {
  const [module] = await Promise.all([import('./legal-dialogs'), loadAllStyles()]);
  return { default: module.LegalDialogs };
});

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
