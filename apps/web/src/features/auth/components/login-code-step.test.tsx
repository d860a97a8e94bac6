import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { passkeyPaths } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { json, problemResponse, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';
import { passkeyNotUsedForStepMessage } from '../api/passkeys';

const tokens = { access: 'access-1', refresh: 'refresh-1' };
const bytes = (text: string) => new TextEncoder().encode(text).buffer;
const base64url = (text: string) => Buffer.from(text).toString('base64url');

/** What the browser's authenticator answers `navigator.credentials.get` with. */
const assertion = {
  id: base64url('credential-1'),
  rawId: bytes('credential-1'),
  type: 'public-key',
  authenticatorAttachment: 'platform',
  response: {
    authenticatorData: bytes('authenticator-data'),
    clientDataJSON: bytes('client-data'),
    signature: bytes('signature'),
    userHandle: null,
  },
  getClientExtensionResults: () => ({}),
};

// jsdom has no WebAuthn: the browser's side is the boundary stood in for here.
const getCredential = vi.fn<(options: CredentialRequestOptions) => Promise<unknown>>();
beforeEach(() => {
  vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {
    // Only its presence is checked.
  });
  Object.defineProperty(navigator, 'credentials', {
    value: { get: getCredential },
    configurable: true,
  });
});
afterEach(() => {
  Reflect.deleteProperty(navigator, 'credentials');
  getCredential.mockReset();
});

/** Logs in with the password up to the second step. */
async function reachCodeStep() {
  const view = renderRoute('/login');
  const { user } = view;
  await screen.findByRole('heading', { name: 'Log in', level: 1 });
  await user.type(screen.getByLabelText('Email'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), 'correct horse');
  await user.click(
    screen.getByRole('checkbox', {
      name: 'I agree to the Terms and Conditions and the Privacy Policy',
    }),
  );
  await user.click(screen.getByRole('button', { name: 'Log in' }));
  await screen.findByRole('button', { name: 'Verify' });
  return view;
}

describe('the login code step', () => {
  it('answers the second step with a passkey of the member instead of a code', async () => {
    const api = stubFetch({
      'POST /api/account/login/': () => json({ mfa_required: true, mfa_token: 'mfa-1' }),
      [`POST ${passkeyPaths.secondFactorOptions}`]: () =>
        json({
          challenge: base64url('challenge-1'),
          rpId: 'localhost',
          allowCredentials: [{ id: base64url('credential-1'), type: 'public-key' }],
          userVerification: 'required',
        }),
      [`POST ${passkeyPaths.secondFactor}`]: () => json(tokens),
      'GET /api/account/': () => json(testAccount),
    });
    getCredential.mockResolvedValue(assertion);
    const { user, router } = await reachCodeStep();

    await user.click(screen.getByRole('button', { name: 'Use a passkey instead' }));

    expect(
      await screen.findByRole('heading', { name: 'You are ready to go!', level: 1 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(api.to(`POST ${passkeyPaths.secondFactorOptions}`)[0]?.body).toEqual({
      mfa_token: 'mfa-1',
    });
    // The browser is asked only for this member's passkeys, for this challenge.
    const asked = getCredential.mock.calls[0]?.[0].publicKey;
    expect(asked?.allowCredentials).toHaveLength(1);
    const [answer] = api.to(`POST ${passkeyPaths.secondFactor}`);
    expect(answer?.body).toMatchObject({
      mfa_token: 'mfa-1',
      response: {
        id: base64url('credential-1'),
        response: { clientDataJSON: base64url('client-data') },
      },
    });
    expect(answer?.headers.has('Authorization')).toBe(false);
    expect(sessionStore.getSnapshot()).toMatchObject(tokens);
    expect(api.to('POST /api/account/login/mfa/')).toHaveLength(0);
  });

  it('stays on the step with a message when no passkey is used or the server refuses it', async () => {
    stubFetch({
      'POST /api/account/login/': () => json({ mfa_required: true, mfa_token: 'mfa-1' }),
      [`POST ${passkeyPaths.secondFactorOptions}`]: () => json({ challenge: base64url('c') }),
      [`POST ${passkeyPaths.secondFactor}`]: () =>
        problemResponse(401, 'This login has expired. Please log in again.'),
    });
    getCredential.mockRejectedValueOnce(new DOMException('Cancelled', 'NotAllowedError'));
    const { user } = await reachCodeStep();

    await user.click(screen.getByRole('button', { name: 'Use a passkey instead' }));
    expect(await screen.findByText(passkeyNotUsedForStepMessage)).toBeInTheDocument();

    getCredential.mockResolvedValueOnce(assertion);
    await user.click(screen.getByRole('button', { name: 'Use a passkey instead' }));
    expect(
      await screen.findByText('This login has expired. Please log in again.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Verify' })).toBeInTheDocument();
  });
});
