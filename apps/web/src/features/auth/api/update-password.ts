import { useMutation } from '@tanstack/react-query';
import { accountPaths, type UpdatePasswordRequest } from '@dental/contracts';
import { apiSend } from '#web/lib/api-client';

/** Sets a new password with the key from the reset e-mail. */
export function useUpdatePassword() {
  return useMutation({
    mutationFn: (request: UpdatePasswordRequest) =>
      apiSend(accountPaths.updatePassword, { method: 'POST', body: request, auth: false }),
  });
}
