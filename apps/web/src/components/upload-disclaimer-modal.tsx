import { Button, Group, Text } from '@mantine/core';
import { Dialog } from './dialog';

export interface UploadDisclaimerModalProps {
  opened: boolean;
  onAccept: () => void;
  onDecline: () => void;
}

/** The disclaimer to accept before adding a photo or a record
 *  (docs/product/records.md#disclaimer-before-adding); its wording is ours
 *  (docs/decisions/upload-disclaimer.md). */
export function UploadDisclaimerModal({ opened, onAccept, onDecline }: UploadDisclaimerModalProps) {
  return (
    <Dialog
      opened={opened}
      onClose={onDecline}
      title="Disclaimer"
      closeOnClickOutside={false}
      centered
    >
      <Text mb="sm">
        The files you store here are kept for your own reference. Nobody reviews them, and they do
        not replace an examination, a diagnosis or treatment by your dentist.
      </Text>
      <Text>
        Store only files you are allowed to keep. Deleting a file is permanent: there is no backup.
      </Text>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onDecline}>
          Cancel
        </Button>
        <Button onClick={onAccept} data-autofocus>
          I accept
        </Button>
      </Group>
    </Dialog>
  );
}
