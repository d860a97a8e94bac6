import type { ReactNode } from 'react';
import { Button, Group } from '@mantine/core';
import { Dialog, type DialogProps } from './dialog';

export interface InfoModalProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  size?: DialogProps['size'];
}

/** The info dialog (docs/product/general.md#dialogs): a title, a body and a 'Back' button. */
export function InfoModal({ opened, onClose, title, children, size = 'lg' }: InfoModalProps) {
  return (
    <Dialog opened={opened} onClose={onClose} title={title} size={size} withCloseButton>
      {children}
      <Group justify="flex-end" mt="md">
        <Button onClick={onClose}>Back</Button>
      </Group>
    </Dialog>
  );
}
