import { useMutation } from '@tanstack/react-query';
import { accountPaths, messageResponse } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';

/** Asks for a reset link; the server answers the same for known and unknown addresses. */
export function useForgetPassword() {
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest(accountPaths.forgetPassword, messageResponse, {
        method: 'POST',
        body: { email },
        auth: false,
      }),
  });
}
