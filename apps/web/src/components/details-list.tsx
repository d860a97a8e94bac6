import type { ReactNode } from 'react';
import classes from './details-list.module.css';

export interface DetailsListProps {
  children: ReactNode;
}

/** Label and value pairs (a description list). */
export function DetailsList({ children }: DetailsListProps) {
  return <dl className={classes.list}>{children}</dl>;
}

export interface DetailProps {
  label: string;
  /** Lets a field in the value take the term as its label. */
  labelId?: string;
  children: ReactNode;
}

export function Detail({ label, labelId, children }: DetailProps) {
  return (
    <div className={classes.row}>
      <dt className={classes.label} id={labelId}>
        {label}
      </dt>
      <dd className={classes.value}>{children}</dd>
    </div>
  );
}
