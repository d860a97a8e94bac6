import type { ReactNode } from 'react';
import { Button, type MantineSize } from '@mantine/core';
import classes from './form-actions.module.css';

export interface FormActionsProps {
  /** The form's submit button text, as SPEC names it (e.g. 'Save', 'Confirm Reservation'). */
  submitLabel: string;
  onCancel: () => void;
  cancelLabel?: 'Cancel' | 'Back';
  /** While the form is sending: the submit button spins and Cancel waits. */
  pending?: boolean;
  submitDisabled?: boolean;
  submitIcon?: ReactNode;
  size?: MantineSize;
}

/** The one place a form's buttons sit (docs/decisions/form-actions.md): Cancel or Back, then the
 *  submit button, at the form's right; stacked full width on a phone. */
export function FormActions({
  submitLabel,
  onCancel,
  cancelLabel = 'Cancel',
  pending = false,
  submitDisabled = false,
  submitIcon,
  size,
}: FormActionsProps) {
  return (
    <div className={classes.actions}>
      <Button variant="default" size={size} onClick={onCancel} disabled={pending}>
        {cancelLabel}
      </Button>
      <Button
        type="submit"
        size={size}
        loading={pending}
        disabled={submitDisabled}
        leftSection={submitIcon}
      >
        {submitLabel}
      </Button>
    </div>
  );
}
