import { useMutation } from '@tanstack/react-query';
import { accountPaths, type ReauthenticateRequest } from '@dental/contracts';
import { apiSend } from '#web/lib/api-client';
import { logout } from '#web/lib/tab-session';
import { leaveLoginNotice } from '#web/lib/sign-out-notice';
import { confirmIdentity } from '#web/lib/step-up';

/** Deactivates the account (docs/product/accounts.md#deactivation: data kept, access blocked), then
 *  ends the session. The server accepts it only from a recent sign-in: given the password or a
 *  code, the session is re-checked first (docs/decisions/session-timeouts.md). */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: async (proof?: ReauthenticateRequest) => {
      await confirmIdentity(proof);
      await apiSend(accountPaths.account, { method: 'DELETE' });
      leaveLoginNotice({
        title: 'Account deleted',
        text: 'Your account is deactivated and you are signed out. Customer service can restore it.',
      });
      await logout();
    },
  });
}
