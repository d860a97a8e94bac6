import { passwordMismatchMessage } from '@dental/contracts';
import { useMessageModal } from '#web/components/message-modal';

/** The shared message dialog (docs/product/general.md#dialogs), plus the new-password check of
 *  the sign-in forms. */
export function useFormPopup() {
  const popup = useMessageModal();
  return {
    ...popup,
    /** True when the two new passwords differ, which is then told in the dialog; the caller sends
     *  nothing (docs/product/accounts.md#reset-password,
     *  docs/decisions/reset-password-mismatch-popup.md). */
    passwordsDiffer: (password: string, confirmPassword: string) => {
      if (password === confirmPassword) return false;
      popup.show({ title: 'Check your password', text: passwordMismatchMessage });
      return true;
    },
  };
}
