import type { ReactNode } from 'react';
import { Modal, type ModalRootProps } from '@mantine/core';

export interface DialogProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  size?: ModalRootProps['size'];
  centered?: boolean;
  /** A click on the backdrop closes the dialog unless this is false (a static backdrop). */
  closeOnClickOutside?: boolean;
  closeOnEscape?: boolean;
  /** The × button in the corner, named 'Close'. */
  withCloseButton?: boolean;
}

function HeaderRoot(props: Record<string, unknown>) {
  return <div {...props} />;
}

/** Mantine's modal, with its header rendered as a <div>: a <header> inside a dialog counts as a
 *  second banner landmark of the page for assistive technology. */
export function Dialog({
  opened,
  onClose,
  title,
  children,
  size,
  centered,
  closeOnClickOutside,
  closeOnEscape,
  withCloseButton = false,
}: DialogProps) {
  return (
    <Modal.Root
      opened={opened}
      onClose={onClose}
      size={size}
      centered={centered}
      closeOnClickOutside={closeOnClickOutside}
      closeOnEscape={closeOnEscape}
    >
      <Modal.Overlay />
      <Modal.Content>
        <Modal.Header renderRoot={HeaderRoot}>
          <Modal.Title fw={650}>{title}</Modal.Title>
          {withCloseButton && <Modal.CloseButton aria-label="Close" />}
        </Modal.Header>
        <Modal.Body>{children}</Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
