import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  account,
  accountPaths,
  messageResponse,
  type ReauthenticateRequest,
} from '@dental/contracts';
import { apiRequest, apiSend } from '#web/lib/api-client';
import { accountQuery } from '#web/lib/account';
import { confirmIdentity } from '#web/lib/step-up';

/** The banner's 'Send the e-mail again' (docs/decisions/email-confirmation.md). */
export function useResendConfirmation() {
  return useMutation({
    mutationFn: () => apiSend(accountPaths.emailConfirmation, { method: 'POST' }),
  });
}

/** Opens the e-mailed link: no sign-in needed, the key names the account. A signed-in tab reads
 *  the account again so its banner goes. */
export function useConfirmEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (key: string) =>
      apiRequest(accountPaths.confirmEmail, messageResponse, {
        method: 'POST',
        body: { key },
        auth: false,
      }),
    onSuccess: () => queryClient.invalidateQueries(accountQuery),
  });
}

/** Asks to change the address; the answer (the account with its pending address) replaces the
 *  cached one. Long after the sign-in the server wants the password first. */
export function useChangeEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ email, proof }: { email: string; proof?: ReauthenticateRequest }) => {
      await confirmIdentity(proof);
      return apiRequest(accountPaths.email, account, { method: 'PUT', body: { email } });
    },
    onSuccess: (updated) => {
      queryClient.setQueryData(accountQuery.queryKey, updated);
    },
  });
}
