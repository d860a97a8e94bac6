import { useState, type ReactNode } from 'react';
import { Button, Group } from '@mantine/core';
import { Dialog } from './dialog';

export interface ConfirmModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  confirmColor?: string;
  /** Runs once; the caller reports its own failures. */
  onConfirm: () => Promise<void>;
}

/** A confirmation dialog whose confirm button turns into a spinner and stays disabled once
 *  clicked (docs/product/general.md#dialogs), so the action cannot be sent twice. */
export function ConfirmModal({
  opened,
  onClose,
  title,
  children,
  confirmLabel,
  confirmColor,
  onConfirm,
}: ConfirmModalProps) {
  const [confirming, setConfirming] = useState(false);

  const confirm = () => {
    setConfirming(true);
    onConfirm().catch(() => {
      setConfirming(false);
    });
  };

  return (
    <Dialog
      opened={opened}
      onClose={onClose}
      title={title}
      closeOnClickOutside={!confirming}
      closeOnEscape={!confirming}
      centered
    >
      {children}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose} disabled={confirming}>
          Cancel
        </Button>
        <Button color={confirmColor} onClick={confirm} loading={confirming}>
          {confirmLabel}
        </Button>
      </Group>
    </Dialog>
  );
}
