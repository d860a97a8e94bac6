import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  accountPaths,
  configPath,
  problemContentType,
  type Account,
  type PublicConfig,
  type SocialProvider,
  type TokenPair,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, uniqueEmail } from '#api-test/factories';
import {
  socialClientIds,
  startSocialProviders,
  type ProviderIdentity,
  type SocialProviders,
} from '#api-test/support/social-providers';
import { deactivatedMessage, wrongCredentialsMessage } from './sign-in';
import {
  existingAccountMessage,
  lastSignInMethodMessage,
  unverifiedEmailMessage,
} from './social-account.service';
import { tokenRejectedMessage } from './social-identity';

let t: TestApp;
let providers: SocialProviders;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  providers = await startSocialProviders();
  t = await buildTestApp({ env: providers.env });
  factory = factories(t);
});
// The providers stamp their tokens with the real time; the server's clock starts in step with it.
beforeEach(() => {
  t.clock.advance(Date.now() - t.clock.now().getTime());
});
afterAll(async () => {
  await t.close();
  await providers.close();
});

const nonce = 'a-nonce-the-browser-made-0123456789';

function verifiedIdentity(): ProviderIdentity & { email: string } {
  return { sub: randomUUID(), email: uniqueEmail('social'), email_verified: true };
}

/** A token of each provider for `who`, as the browser would send it. */
async function tokenFor(provider: SocialProvider, who: ProviderIdentity) {
  switch (provider) {
    case 'google':
      return { token: await providers.googleToken(who) };
    case 'apple':
      return { token: await providers.appleIdToken(who, { nonce }), nonce };
    case 'facebook':
      return { token: providers.facebookToken(who) };
  }
}

const socialLogin = (login_type: SocialProvider, body: { token: string; nonce?: string }) =>
  t.request('POST', accountPaths.login, { body: { login_type, ...body } });
const getAccount = (access: string) => t.request('GET', accountPaths.account, { token: access });
const link = (
  access: string,
  login_type: SocialProvider,
  body: { token: string; nonce?: string },
) =>
  t.request('POST', accountPaths.socialMediaAccount, {
    token: access,
    body: { login_type, ...body },
  });
const unlink = (access: string, provider: SocialProvider, id: string) =>
  t.request('DELETE', `${accountPaths.socialMediaAccount}${provider}/${id}/`, { token: access });

function expectProblem(
  res: Awaited<ReturnType<typeof getAccount>>,
  status: number,
  detail: string,
) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toContain(problemContentType);
  expect(res.json<{ detail: string }>().detail).toBe(detail);
}

describe('GET /api/config/', () => {
  it('names each configured provider with its public client values and no secret', async () => {
    const res = await t.request('GET', configPath);
    const config = res.json<PublicConfig>();
    expect(config.social_providers.map((client) => client.provider)).toEqual([
      'google',
      'apple',
      'facebook',
    ]);
    expect(config.social_providers[0]).toEqual({
      provider: 'google',
      client_id: socialClientIds.google,
      authorize_url: providers.env.GOOGLE_AUTH_URL,
      token_url: providers.env.GOOGLE_TOKEN_URL,
      scope: 'openid email',
    });
    expect(res.body).not.toContain(providers.env.FACEBOOK_APP_SECRET);
    // The browser exchanges its code at the token endpoints, so the CSP lets it call them.
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain(
      `connect-src 'self' ${new URL(providers.env.GOOGLE_TOKEN_URL ?? '').origin}`,
    );
  });
});

describe.each(['google', 'apple', 'facebook'] as const)('first sign-in with %s', (provider) => {
  it('creates a member without a password, linked to that account, and signs in again', async () => {
    const who = verifiedIdentity();
    const first = await socialLogin(provider, await tokenFor(provider, who));
    expect(first.statusCode, first.body).toBe(200);
    const account = (await getAccount(first.json<TokenPair>().access)).json<Account>();
    expect(account.email).toBe(who.email);
    expect(account.customer_level).toBe('Silver');
    expect(account[`${provider}_account`]).toEqual({
      email: who.email,
      social_media_account: expect.any(String) as string,
    });

    const again = await socialLogin(provider, await tokenFor(provider, who));
    expect(again.statusCode).toBe(200);
    const sameMember = (await getAccount(again.json<TokenPair>().access)).json<Account>();
    expect(sameMember.id).toBe(account.id);

    // No password was ever set: any password is wrong, and nothing crashes.
    const native = await t.request('POST', accountPaths.login, {
      body: { login_type: 'native', email: who.email, password: 'Any-password-1234' },
    });
    expectProblem(native, 401, wrongCredentialsMessage);
  });

  it('creates no account when the provider has not confirmed the e-mail address', async () => {
    const who = { sub: randomUUID(), email: uniqueEmail('unverified'), email_verified: false };
    const res = await socialLogin(provider, await tokenFor(provider, who));
    expectProblem(res, 403, unverifiedEmailMessage(provider));
    const native = await t.request('POST', accountPaths.register, {
      body: { email: who.email, username: 'Now Registers', password: 'Molar-unverified-77' },
    });
    expect(native.statusCode).toBe(201);
  });

  it('never attaches to an existing account with the same e-mail', async () => {
    const member = await factory.member();
    const who = { sub: randomUUID(), email: member.email.toUpperCase(), email_verified: true };
    const res = await socialLogin(provider, await tokenFor(provider, who));
    expectProblem(res, 409, existingAccountMessage(provider));
    const tokens = await factory.login(member);
    const account = (await getAccount(tokens.access)).json<Account>();
    expect(account[`${provider}_account`]).toBeNull();
  });

  it('refuses a deactivated member', async () => {
    const who = verifiedIdentity();
    const first = await socialLogin(provider, await tokenFor(provider, who));
    const access = first.json<TokenPair>().access;
    expect((await t.request('DELETE', accountPaths.account, { token: access })).statusCode).toBe(
      204,
    );
    const res = await socialLogin(provider, await tokenFor(provider, who));
    expectProblem(res, 403, deactivatedMessage(t.config.customerServiceEmail));
  });
});

describe('token verification', () => {
  it('refuses a Google token issued to another app (wrong audience)', async () => {
    const token = await providers.googleToken(verifiedIdentity(), { audience: 'another-app' });
    expectProblem(await socialLogin('google', { token }), 401, tokenRejectedMessage('google'));
  });

  it('refuses an expired Google token', async () => {
    const token = await providers.googleToken(verifiedIdentity(), { expiresIn: -60 });
    expectProblem(await socialLogin('google', { token }), 401, tokenRejectedMessage('google'));
  });

  it('refuses an Apple token signed by a key that is not Apple’s (bad signature)', async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const { kid } = (await exportJWK(publicKey)) as { kid?: string };
    const token = await new SignJWT({ nonce: 'irrelevant', email: uniqueEmail() })
      .setProtectedHeader({ alg: 'RS256', kid: kid ?? 'forged' })
      .setIssuer(providers.env.APPLE_ISSUER ?? '')
      .setAudience(socialClientIds.apple)
      .setSubject(randomUUID())
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    expectProblem(await socialLogin('apple', { token, nonce }), 401, tokenRejectedMessage('apple'));
  });

  it('refuses an Apple token for another client id (wrong audience)', async () => {
    const token = await providers.appleIdToken(verifiedIdentity(), {
      nonce,
      audience: 'com.example.other',
    });
    expectProblem(await socialLogin('apple', { token, nonce }), 401, tokenRejectedMessage('apple'));
  });

  it('refuses an expired Apple token, by the server’s clock', async () => {
    const token = await providers.appleIdToken(verifiedIdentity(), { nonce, expiresIn: 600 });
    t.clock.advance(11 * 60 * 1000);
    try {
      expectProblem(
        await socialLogin('apple', { token, nonce }),
        401,
        tokenRejectedMessage('apple'),
      );
    } finally {
      t.clock.advance(-11 * 60 * 1000);
    }
  });

  it('refuses an Apple token whose nonce is not the one sent, and one without a nonce', async () => {
    const token = await providers.appleIdToken(verifiedIdentity(), { nonce });
    expectProblem(
      await socialLogin('apple', { token, nonce: 'another-nonce-0123456789abcdef' }),
      401,
      tokenRejectedMessage('apple'),
    );
    const missing = await socialLogin('apple', { token });
    expect(missing.statusCode).toBe(400);
  });

  it('refuses a Facebook token of another app, an expired one and an unknown one', async () => {
    const who = verifiedIdentity();
    for (const token of [
      providers.facebookToken(who, { appId: '999' }),
      providers.facebookToken(who, { expiresIn: -60 }),
      'EAA-not-a-token',
    ]) {
      expectProblem(
        await socialLogin('facebook', { token }),
        401,
        tokenRejectedMessage('facebook'),
      );
    }
  });
});

describe('linking and unlinking on the Profile', () => {
  it('links a provider account, shows its e-mail, and unlinks it while a password remains', async () => {
    const member = await factory.loggedInMember();
    const who = verifiedIdentity();
    const linked = await link(member.tokens.access, 'google', await tokenFor('google', who));
    expect(linked.statusCode, linked.body).toBe(200);
    const googleAccount = linked.json<Account>().google_account;
    expect(googleAccount?.email).toBe(who.email);

    // The linked account now signs this member in.
    const viaGoogle = await socialLogin('google', await tokenFor('google', who));
    const account = (await getAccount(viaGoogle.json<TokenPair>().access)).json<Account>();
    expect(account.id).toBe(member.id);

    const unlinked = await unlink(
      member.tokens.access,
      'google',
      googleAccount?.social_media_account ?? '',
    );
    expect(unlinked.statusCode).toBe(200);
    expect(unlinked.json<Account>().google_account).toBeNull();
    // Unlinked, the same provider account is a stranger with an e-mail nobody has: a new member.
    const after = await socialLogin('google', await tokenFor('google', who));
    const stranger = (await getAccount(after.json<TokenPair>().access)).json<Account>();
    expect(stranger.id).not.toBe(member.id);
  });

  it('refuses an account already linked to another member, and a second one of a provider', async () => {
    const owner = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    const who = verifiedIdentity();
    expect(
      (await link(owner.tokens.access, 'facebook', await tokenFor('facebook', who))).statusCode,
    ).toBe(200);
    const taken = await link(other.tokens.access, 'facebook', await tokenFor('facebook', who));
    expectProblem(taken, 409, 'This Facebook account is already connected to another member.');
    const second = await link(
      owner.tokens.access,
      'facebook',
      await tokenFor('facebook', verifiedIdentity()),
    );
    expectProblem(
      second,
      409,
      'Your profile is already connected to another Facebook account. Disconnect it first.',
    );
  });

  it('refuses to unlink the last way to sign in', async () => {
    const who = verifiedIdentity();
    const first = await socialLogin('apple', await tokenFor('apple', who));
    const access = first.json<TokenPair>().access;
    const appleAccount = (await getAccount(access)).json<Account>().apple_account;
    const res = await unlink(access, 'apple', appleAccount?.social_media_account ?? '');
    expectProblem(res, 409, lastSignInMethodMessage('apple'));
    expect((await getAccount(access)).json<Account>().apple_account).toEqual(appleAccount);

    // With a second provider linked, the first one may go.
    expect(
      (await link(access, 'google', await tokenFor('google', verifiedIdentity()))).statusCode,
    ).toBe(200);
    expect(
      (await unlink(access, 'apple', appleAccount?.social_media_account ?? '')).statusCode,
    ).toBe(200);
  });

  it('unlinks only right after a sign-in or a re-check', async () => {
    const member = await factory.loggedInMember();
    const linked = await link(
      member.tokens.access,
      'facebook',
      await tokenFor('facebook', verifiedIdentity()),
    );
    const id = linked.json<Account>().facebook_account?.social_media_account ?? '';
    t.clock.advance(t.config.session.reauthMinutes * 60 * 1000 + 1000);
    expect((await unlink(member.tokens.access, 'facebook', id)).statusCode).toBe(403);
    expect(
      (await getAccount(member.tokens.access)).json<Account>().facebook_account
        ?.social_media_account,
    ).toBe(id);
  });

  it('answers 404 for another member’s link, a wrong provider and a malformed id', async () => {
    const owner = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    const linked = await link(
      owner.tokens.access,
      'google',
      await tokenFor('google', verifiedIdentity()),
    );
    const id = linked.json<Account>().google_account?.social_media_account ?? '';
    expect((await unlink(other.tokens.access, 'google', id)).statusCode).toBe(404);
    expect((await unlink(owner.tokens.access, 'apple', id)).statusCode).toBe(404);
    expect((await unlink(owner.tokens.access, 'google', 'not-a-uuid')).statusCode).toBe(404);
    expect(
      (await getAccount(owner.tokens.access)).json<Account>().google_account?.social_media_account,
    ).toBe(id);
  });
});
