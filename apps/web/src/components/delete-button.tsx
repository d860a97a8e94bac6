import { useState } from 'react';
import { Alert, Button, Text } from '@mantine/core';
import { errorMessage } from '../lib/api-client';
import { ConfirmModal } from './confirm-modal';

/** The part of a delete mutation (TanStack Query) that the button drives and reports. */
export interface DeleteMutation {
  mutateAsync: (id: string) => Promise<unknown>;
  reset: () => void;
  isError: boolean;
  error: unknown;
}

export interface DeleteButtonProps {
  deletion: DeleteMutation;
  /** What `deletion` is called with. */
  id: string;
  /** The dialog's title, e.g. 'Delete photo'. */
  title: string;
  question: string;
}

/** A card's small Delete button: it asks first (SPEC §2), and a refusal from the server is told in
 *  the dialog, which stays open so the member can try again or cancel. */
export function DeleteButton({ deletion, id, title, question }: DeleteButtonProps) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button
        color="red"
        variant="outline"
        size="xs"
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
          setConfirming(false);
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
