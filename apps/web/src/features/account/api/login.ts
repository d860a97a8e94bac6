import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountPaths, tokenPair, type LoginRequest } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { sessionStore } from '#web/lib/session-store';
import { accountQuery } from '#web/lib/account';

export type Credentials = Pick<LoginRequest, 'email' | 'password'>;

/** Native e-mail and password sign-in; the tokens go to session storage and the user is
 *  loaded unless already cached (docs/product/accounts.md#session). */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentials: Credentials) =>
      apiRequest(accountPaths.login, tokenPair, {
        method: 'POST',
        body: { login_type: 'native', ...credentials } satisfies LoginRequest,
        auth: false,
      }),
    onSuccess: (tokens) => {
      sessionStore.save(tokens);
      // Load the user unless it is cached already; a failure shows where the user is displayed.
      void queryClient.query({ ...accountQuery, staleTime: 'static' }).catch(() => undefined);
    },
  });
}
