import { afterEach, describe, expect, it } from 'vitest';
import type { SocialProviderClient } from '@dental/contracts';
import { sha256Base64Url, startSocialSignIn, takePendingSignIn } from './social-oauth';

const google: SocialProviderClient = {
  provider: 'google',
  client_id: 'google-client',
  authorize_url: 'https://accounts.example/authorize',
  token_url: 'https://accounts.example/token',
  scope: 'openid email',
};

afterEach(() => {
  sessionStorage.clear();
});

describe('the social sign-in redirect', () => {
  it('asks for a code with PKCE S256, a state and the hash of a nonce', async () => {
    const url = new URL(await startSocialSignIn(google, 'login', '/appointments'));
    const query = url.searchParams;
    expect(`${url.origin}${url.pathname}`).toBe(google.authorize_url);
    expect(query.get('response_type')).toBe('code');
    expect(query.get('client_id')).toBe('google-client');
    expect(query.get('redirect_uri')).toBe(`${window.location.origin}/auth/callback`);
    expect(query.get('code_challenge_method')).toBe('S256');
    const pending = takePendingSignIn(query.get('state'));
    expect(pending).toMatchObject({
      provider: 'google',
      intent: 'login',
      returnTo: '/appointments',
    });
    expect(query.get('code_challenge')).toBe(await sha256Base64Url(pending?.verifier ?? ''));
    expect(query.get('nonce')).toBe(await sha256Base64Url(pending?.nonce ?? ''));
  });

  it('accepts the state it issued once only, and no other', async () => {
    const state = new URL(await startSocialSignIn(google, 'link', '/account')).searchParams.get(
      'state',
    );
    expect(takePendingSignIn('a-state-we-never-issued')).toBeNull();
    // A wrong state also uses the attempt up, so the real callback cannot follow a forged one.
    expect(takePendingSignIn(state)).toBeNull();

    const again = new URL(await startSocialSignIn(google, 'link', '/account')).searchParams.get(
      'state',
    );
    expect(takePendingSignIn(again)).not.toBeNull();
    expect(takePendingSignIn(again)).toBeNull();
  });
});
