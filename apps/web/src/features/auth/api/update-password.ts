import { useMutation, useQuery } from '@tanstack/react-query';
import { accountPaths, type UpdatePasswordRequest } from '@dental/contracts';
import { apiSend } from '#web/lib/api-client';

/** Sets a new password with the key from the reset e-mail. */
export function useUpdatePassword() {
  return useMutation({
    mutationFn: (request: UpdatePasswordRequest) =>
      apiSend(accountPaths.updatePassword, { method: 'POST', body: request, auth: false }),
  });
}

/** Whether the reset link can still set a password, asked when the page opens; uses nothing up
 *  (docs/decisions/password-reset.md). Asked once: a refusal is final. */
export function useResetKeyCheck(key: string) {
  return useQuery({
    queryKey: ['reset-key-check', key],
    queryFn: async () => {
      await apiSend(accountPaths.checkResetKey, { method: 'POST', body: { key }, auth: false });
      return true;
    },
    enabled: key !== '',
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
}
