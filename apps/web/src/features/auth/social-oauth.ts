import { z } from 'zod';
import { socialProvider, type SocialProviderClient } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { ApiError } from '#web/lib/api-client';

/**
 * The browser half of social sign-in (docs/decisions/social-sign-in.md): the OAuth 2.0
 * authorization-code flow with PKCE (S256), `state` and a nonce, through a full-page redirect and
 * back to /auth/callback. No provider script runs in the page.
 */

const pendingKey = 'dental.social-sign-in';

const pendingSignIn = z.object({
  state: z.string(),
  verifier: z.string(),
  nonce: z.string(),
  provider: socialProvider,
  intent: z.enum(['login', 'link']),
  returnTo: z.string(),
});
export type PendingSignIn = z.infer<typeof pendingSignIn>;
export type SignInIntent = PendingSignIn['intent'];

function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return base64Url(bytes);
}

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/** SHA-256, base64url: the PKCE challenge of a verifier and the nonce the provider signs. */
export async function sha256Base64Url(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return base64Url(new Uint8Array(digest));
}

export function callbackUrl(): string {
  return `${window.location.origin}${paths.authCallback}`;
}

/** Remembers this attempt and returns the provider's authorize address to send the browser to. */
export async function startSocialSignIn(
  client: SocialProviderClient,
  intent: SignInIntent,
  returnTo: string,
): Promise<string> {
  const pending: PendingSignIn = {
    state: randomToken(),
    verifier: randomToken(),
    nonce: randomToken(),
    provider: client.provider,
    intent,
    returnTo,
  };
  sessionStorage.setItem(pendingKey, JSON.stringify(pending));
  const url = new URL(client.authorize_url);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: callbackUrl(),
    scope: client.scope,
    state: pending.state,
    code_challenge: await sha256Base64Url(pending.verifier),
    code_challenge_method: 'S256',
    // The provider signs only the hash; the raw nonce goes to our API with the token.
    nonce: await sha256Base64Url(pending.nonce),
  }).toString();
  return url.href;
}

/**
 * The attempt a callback belongs to, used up by this call: null when the state is not the one
 * this tab issued, or was used already (a replayed or forged callback).
 */
export function takePendingSignIn(state: string | null): PendingSignIn | null {
  const stored = sessionStorage.getItem(pendingKey);
  sessionStorage.removeItem(pendingKey);
  if (stored === null || state === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(stored);
  } catch {
    return null;
  }
  const pending = pendingSignIn.safeParse(parsed);
  return pending.success && pending.data.state === state ? pending.data : null;
}

const tokenAnswer = z.object({
  access_token: z.string().optional(),
  id_token: z.string().optional(),
});

export const exchangeFailedMessage = 'The sign-in could not be completed. Please try again.';

/** Exchanges the code for the token our API verifies: Apple's identity token, Google's and
 *  Facebook's access token. */
export async function exchangeCode(
  client: SocialProviderClient,
  pending: PendingSignIn,
  code: string,
): Promise<string> {
  const response = await fetch(client.token_url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: callbackUrl(),
      client_id: client.client_id,
      code_verifier: pending.verifier,
    }).toString(),
  });
  const answer = tokenAnswer.safeParse(await response.json().catch(() => undefined));
  const token = client.provider === 'apple' ? answer.data?.id_token : answer.data?.access_token;
  if (!response.ok || token === undefined) {
    throw new ApiError(response.status, exchangeFailedMessage);
  }
  return token;
}
