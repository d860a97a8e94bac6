import { useMutation } from '@tanstack/react-query';
import { accountPaths } from '@dental/contracts';
import { apiSend } from '../../../lib/api-client';
import { logout } from '../../../lib/session';

/** Deactivates the account (docs/product/accounts.md#deactivation: data kept, access blocked), then
 *  ends the session. */
export function useDeleteAccount() {
  return useMutation({
    mutationFn: async () => {
      await apiSend(accountPaths.account, { method: 'DELETE' });
      await logout();
    },
  });
}
