import type { ReactNode } from 'react';
import { Text } from '@mantine/core';
import { ConfirmModal } from '#web/components/confirm-modal';
import { errorMessage } from '#web/lib/api-client';
import { tell } from './tell';

/** The admin screens' 'are you sure?' before a removal: closes once done, else says why and
 *  lets the admin try again. */
export function ConfirmRemoval<Item>({
  item,
  title,
  confirmLabel,
  onClose,
  remove,
  children,
}: {
  item: Item | null;
  title: string;
  confirmLabel: string;
  onClose: () => void;
  remove: (item: Item) => Promise<unknown>;
  children: ReactNode;
}) {
  return (
    <ConfirmModal
      opened={item !== null}
      onClose={onClose}
      title={title}
      confirmLabel={confirmLabel}
      confirmColor="red"
      onConfirm={async () => {
        if (item === null) return;
        try {
          await remove(item);
          onClose();
        } catch (error) {
          tell(errorMessage(error), true);
          throw error;
        }
      }}
    >
      <Text>{children}</Text>
    </ConfirmModal>
  );
}
