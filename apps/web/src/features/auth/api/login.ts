import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  accountPaths,
  loginResponse,
  secondFactorPaths,
  tokenPair,
  type LoginRequest,
  type LoginResponse,
  type TokenPair,
} from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { sessionStore } from '#web/lib/session-store';
import { accountQuery } from '#web/lib/account';

export type Credentials = Pick<LoginRequest, 'email' | 'password'>;

/** Every sign-in ends here: the tokens go to session storage and the user is loaded unless
 *  already cached (docs/product/accounts.md#session). */
export function startSession(queryClient: QueryClient, tokens: TokenPair) {
  sessionStore.save(tokens);
  // Load the user unless it is cached already; a failure shows where the user is displayed.
  void queryClient.query({ ...accountQuery, staleTime: 'static' }).catch(() => undefined);
}

/** The tokens of a sign-in, or null when the account asks for its second step first
 *  (docs/decisions/second-factor.md): then the caller shows the code step. */
export function tokensOf(answer: LoginResponse): TokenPair | null {
  return 'access' in answer ? answer : null;
}

/** Native e-mail and password sign-in; answers the challenge of an account with a second
 *  factor. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentials: Credentials) =>
      apiRequest(accountPaths.login, loginResponse, {
        method: 'POST',
        body: { login_type: 'native', ...credentials } satisfies LoginRequest,
        auth: false,
      }),
    onSuccess: (answer) => {
      const tokens = tokensOf(answer);
      if (tokens !== null) startSession(queryClient, tokens);
    },
  });
}

/** The second step of a login (docs/decisions/second-factor.md): the challenge's token and a
 *  code; the tokens start the session. */
export function useLoginWithCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ mfaToken, code }: { mfaToken: string; code: string }) =>
      apiRequest(secondFactorPaths.loginWithCode, tokenPair, {
        method: 'POST',
        body: { mfa_token: mfaToken, code },
        auth: false,
      }),
    onSuccess: (tokens) => {
      startSession(queryClient, tokens);
    },
  });
}
