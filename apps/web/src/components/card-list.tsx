import type { ReactNode } from 'react';
import classes from './card-list.module.css';

/** An ordered list of cards (each a `Paper component="li"`), without bullets; `label` names it
 *  for screen readers, e.g. 'Your receipts, newest first'. */
export function CardList({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ol className={classes.list} aria-label={label}>
      {children}
    </ol>
  );
}
