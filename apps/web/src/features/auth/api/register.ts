import { useMutation } from '@tanstack/react-query';
import { accountPaths, type RegisterRequest } from '@dental/contracts';
import { apiSend } from '#web/lib/api-client';

export function useRegister() {
  return useMutation({
    mutationFn: (request: RegisterRequest) =>
      apiSend(accountPaths.register, { method: 'POST', body: request, auth: false }),
  });
}
