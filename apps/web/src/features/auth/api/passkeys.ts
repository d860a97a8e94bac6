import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  startAuthentication,
  startRegistration,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
} from '@simplewebauthn/browser';
import {
  accountPaths,
  passkey,
  passkeyList,
  passkeyPaths,
  tokenPair,
  webAuthnOptions,
  type TokenPair,
} from '@dental/contracts';
import { ApiError, apiRequest, apiSend } from '#web/lib/api-client';
import { startSession } from './login';

export const passkeysQuery = queryOptions({
  queryKey: ['passkeys'],
  queryFn: () => apiRequest(passkeyPaths.list, passkeyList),
});

export function usePasskeys() {
  return useQuery(passkeysQuery);
}

export const passkeyNotCreatedMessage =
  'The passkey was not created. Please try again, or use another device or browser.';
export const passkeyNotUsedMessage =
  'No passkey was used. Please try again, or log in with your e-mail and password.';
export const passkeyNotUsedForStepMessage =
  'No passkey was used. Please try again, or enter a code.';

/** Runs the browser's side of a ceremony; its failures (mostly: the member cancelled) become an
 *  error with a sentence to show, like the API's own. */
async function inBrowser<Answer>(ceremony: () => Promise<Answer>, message: string) {
  try {
    return await ceremony();
  } catch {
    throw new ApiError(0, message);
  }
}

/** The step-up before a sensitive change: given the password, the session is re-checked first
 *  (docs/decisions/session-timeouts.md). */
async function confirmPassword(password: string | undefined) {
  if (password === undefined) return;
  await apiSend(accountPaths.reauthenticate, { method: 'POST', body: { password } });
}

/** Creates a passkey in the browser and registers it under `name`. */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, password }: { name: string; password?: string }) => {
      await confirmPassword(password);
      const options = await apiRequest(passkeyPaths.registrationOptions, webAuthnOptions, {
        method: 'POST',
      });
      const response = await inBrowser(
        // The server's options are @simplewebauthn's own; the contract checks only the challenge.
        () =>
          startRegistration({
            optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
          }),
        passkeyNotCreatedMessage,
      );
      return apiRequest(passkeyPaths.list, passkey, {
        method: 'POST',
        body: { name, response },
      });
    },
    onSettled: () => queryClient.invalidateQueries(passkeysQuery),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, password }: { id: string; password?: string }) => {
      await confirmPassword(password);
      await apiSend(`${passkeyPaths.list}${id}/`, { method: 'DELETE' });
    },
    onSettled: () => queryClient.invalidateQueries(passkeysQuery),
  });
}

/** Asks the browser for one of this site's passkeys, in the e-mail field's autofill or in its
 *  own dialog; nothing is signed in until `signInWithPasskey` sends the answer. */
export async function askForPasskey(autofill: boolean): Promise<AuthenticationResponseJSON> {
  const options = await apiRequest(passkeyPaths.signInOptions, webAuthnOptions, {
    method: 'POST',
    auth: false,
  });
  return inBrowser(
    () =>
      startAuthentication({
        optionsJSON: options,
        useBrowserAutofill: autofill,
      }),
    passkeyNotUsedMessage,
  );
}

/** The second step of a login answered with a passkey of the member the `mfa_token` names
 *  (docs/decisions/passkeys.md). */
export function useLoginWithPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (mfaToken: string) => {
      const options = await apiRequest(passkeyPaths.secondFactorOptions, webAuthnOptions, {
        method: 'POST',
        body: { mfa_token: mfaToken },
        auth: false,
      });
      const response = await inBrowser(
        () => startAuthentication({ optionsJSON: options }),
        passkeyNotUsedForStepMessage,
      );
      return apiRequest(passkeyPaths.secondFactor, tokenPair, {
        method: 'POST',
        body: { mfa_token: mfaToken, response },
        auth: false,
      });
    },
    onSuccess: (tokens) => {
      startSession(queryClient, tokens);
    },
  });
}

export function signInWithPasskey(response: AuthenticationResponseJSON): Promise<TokenPair> {
  return apiRequest(passkeyPaths.signIn, tokenPair, {
    method: 'POST',
    body: { response },
    auth: false,
  });
}
