import { useState } from 'react';
import { passwordMismatchMessage } from '@dental/contracts';
import { MessageModal, type ModalMessage } from '../../../components/message-modal';

/** The message dialog of the account forms (docs/product/general.md#dialogs): `show` opens it and
 *  `dialog` goes on the page once. */
export function useFormPopup() {
  const [message, setMessage] = useState<ModalMessage | null>(null);
  return {
    show: setMessage,
    /** True when the two new passwords differ, which is then told in the dialog; the caller sends
     *  nothing (docs/product/accounts.md#reset-password,
     *  docs/decisions/reset-password-mismatch-popup.md). */
    passwordsDiffer: (password: string, confirmPassword: string) => {
      if (password === confirmPassword) return false;
      setMessage({ title: 'Check your password', text: passwordMismatchMessage });
      return true;
    },
    dialog: (
      <MessageModal
        message={message}
        onClose={() => {
          setMessage(null);
        }}
      />
    ),
  };
}
