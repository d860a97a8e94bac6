import { useState } from 'react';
import { Alert, Button, Text, type ButtonProps } from '@mantine/core';
import { errorMessage } from '../lib/api-client';
import { ConfirmModal } from './confirm-modal';
import { useReadOnlyRecord } from '../lib/viewed-record';

/** The part of a delete mutation (TanStack Query) that the button drives and reports. */
export interface DeleteMutation {
  mutateAsync: (id: string) => Promise<unknown>;
  reset: () => void;
  isError: boolean;
  error: unknown;
}

export interface DeleteButtonProps extends Pick<ButtonProps, 'size' | 'variant'> {
  deletion: DeleteMutation;
  /** What `deletion` is called with. */
  id: string;
  /** The dialog's title, e.g. 'Delete photo'. */
  title: string;
  question: string;
  /** Runs once deleted, in place of closing the dialog: a page showing the deleted item leaves. */
  onDeleted?: () => Promise<void>;
}

/** A Delete button, small and outlined as on a card unless `size` and `variant` say otherwise: it
 *  asks first (docs/product/general.md#dialogs), and a refusal from the server is told in the
 *  dialog, which stays open so the member can try again or cancel. */
export function DeleteButton({
  deletion,
  id,
  title,
  question,
  onDeleted,
  size = 'xs',
  variant = 'outline',
}: DeleteButtonProps) {
  const [confirming, setConfirming] = useState(false);
  // Nothing of another member's record is deleted (docs/product/proxy-access.md).
  const readOnly = useReadOnlyRecord();
  if (readOnly) return null;
  return (
    <>
      <Button
        color="red"
        variant={variant}
        size={size}
        onClick={() => {
          // A refusal from an earlier try is not shown again.
          deletion.reset();
          setConfirming(true);
        }}
      >
        Delete
      </Button>
      <ConfirmModal
        opened={confirming}
        onClose={() => {
          setConfirming(false);
        }}
        title={title}
        confirmLabel="Delete"
        confirmColor="red"
        onConfirm={async () => {
          await deletion.mutateAsync(id);
          if (onDeleted) await onDeleted();
          else setConfirming(false);
        }}
      >
        <Text>{question}</Text>
        {deletion.isError && (
          <Alert color="red" variant="outline" mt="sm">
            {errorMessage(deletion.error)}
          </Alert>
        )}
      </ConfirmModal>
    </>
  );
}
