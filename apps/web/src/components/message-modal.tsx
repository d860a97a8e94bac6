import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { Dialog } from './dialog';

export interface ModalMessage {
  title: string;
  text: string;
}

export interface MessageModalProps {
  /** What to tell; the dialog is open while it is not null. */
  message: ModalMessage | null;
  onClose: () => void;
}

/** The message dialog (docs/product/general.md#dialogs): a static backdrop (a click outside does
 *  not close it) and one 'Close' button. */
export function MessageModal({ message, onClose }: MessageModalProps) {
  // Keep showing the last message while the dialog fades out after it was cleared.
  const [shown, setShown] = useState(message);
  if (message !== null && message !== shown) setShown(message);

  return (
    <Dialog
      opened={message !== null}
      onClose={onClose}
      title={shown?.title ?? ''}
      closeOnClickOutside={false}
      centered
    >
      <Text>{shown?.text}</Text>
      <Group justify="flex-end" mt="md">
        <Button onClick={onClose} data-autofocus>
          Close
        </Button>
      </Group>
    </Dialog>
  );
}

/** A screen's message dialog: `show` opens it, with what to do once the user has closed it, and
 *  `dialog` goes on the page once. */
export function useMessageModal() {
  const [message, setMessage] = useState<(ModalMessage & { onClosed?: () => void }) | null>(null);
  return {
    show: (next: ModalMessage, onClosed?: () => void) => {
      setMessage({ ...next, onClosed });
    },
    dialog: (
      <MessageModal
        message={message}
        onClose={() => {
          setMessage(null);
          message?.onClosed?.();
        }}
      />
    ),
  };
}
