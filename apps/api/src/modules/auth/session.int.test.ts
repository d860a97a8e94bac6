import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodeJwt } from 'jose';
import {
  accountPaths,
  problemContentType,
  type TokenHandoff,
  type TokenPair,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, uniqueEmail } from '#api-test/factories';
import { PasswordService } from './password.service';
import { sessionExpiredMessage } from '#api/plugins/auth';
import { deactivatedMessage, wrongCredentialsMessage } from './sign-in';
import { accessTokenLifetimeSeconds, refreshTokenLifetimeMs } from './token.service';

const customerServiceEmail = 'care@clinic.example';
let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  t = await buildTestApp({ env: { CUSTOMER_SERVICE_EMAIL: customerServiceEmail } });
  factory = factories(t);
});
afterAll(() => t.close());
afterEach(() => {
  vi.restoreAllMocks();
});

const login = (body: Record<string, unknown>) => t.request('POST', accountPaths.login, { body });
const refresh = (token: string) =>
  t.request('POST', accountPaths.refresh, { body: { refresh: token } });
const handOff = (token: string) =>
  t.request('POST', accountPaths.handoff, { body: { refresh: token } });
const logout = (token: string) =>
  t.request('POST', accountPaths.logout, { body: { refresh: token } });
const getAccount = (access: string) => t.request('GET', accountPaths.account, { token: access });

describe('POST /api/account/login/', () => {
  it('answers an access token of at most 15 minutes and an opaque refresh token', async () => {
    const member = await factory.member();
    const res = await login({
      login_type: 'native',
      email: member.email,
      password: member.password,
    });
    expect(res.statusCode).toBe(200);
    const { access, refresh: refreshToken } = res.json<TokenPair>();
    const claims = decodeJwt(access);
    expect(claims.sub).toBe(member.id);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(accessTokenLifetimeSeconds);
    expect(accessTokenLifetimeSeconds).toBeLessThanOrEqual(15 * 60);
    // 32 random bytes in base64url: 256 bits, and nothing readable inside.
    expect(refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await getAccount(access)).statusCode).toBe(200);
  });

  it('matches the e-mail whatever its letter case', async () => {
    const member = await factory.member({ email: uniqueEmail('MixedCase') });
    const res = await login({
      login_type: 'native',
      email: member.email.toUpperCase(),
      password: member.password,
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown e-mail identically', async () => {
    const member = await factory.member();
    const dummyCheck = vi.spyOn(PasswordService.prototype, 'verifyAgainstDummy');
    const wrongPassword = await login({
      login_type: 'native',
      email: member.email,
      password: 'not-the-password',
    });
    const unknownEmail = await login({
      login_type: 'native',
      email: uniqueEmail('nobody'),
      password: 'not-the-password',
    });
    for (const res of [wrongPassword, unknownEmail]) {
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toBe(wrongPassword.headers['content-type']);
      expect(res.json()).toEqual({
        type: 'about:blank',
        title: 'Unauthorized',
        status: 401,
        detail: wrongCredentialsMessage,
      });
    }
    // The unknown e-mail still costs a password hash check, so timing does not tell either.
    expect(dummyCheck).toHaveBeenCalledTimes(1);
  });

  it.each([
    [{ email: 'a@example.com', password: 'x' }, 'login_type'],
    [{ login_type: 'native', password: 'x' }, 'email'],
    [{ login_type: 'native', email: 'a@example.com' }, 'password'],
    [{ login_type: 'native', email: '', password: 'x' }, 'email'],
    [{ login_type: 'native', email: 'a@example.com', password: '' }, 'password'],
    [{ login_type: 'password', email: 'a@example.com', password: 'x' }, 'login_type'],
    [{ login_type: 'google' }, 'token'],
  ])('refuses %j with a field error on %s', async (body, field) => {
    const res = await login(body);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain(problemContentType);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toHaveProperty(field);
  });

  it.each([
    ['google', 'Google'],
    ['apple', 'Apple'],
    ['facebook', 'Facebook'],
  ])('says that sign-in with %s is not available instead of faking it', async (type, name) => {
    const res = await login({ login_type: type, token: 'a-provider-token' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      detail: `Sign-in with ${name} is not available on this server.`,
    });
  });

  it('refuses a deactivated member with the customer service address, only after the password', async () => {
    const member = await factory.loggedInMember();
    expect(
      (await t.request('DELETE', accountPaths.account, { token: member.tokens.access })).statusCode,
    ).toBe(204);

    const right = await login({
      login_type: 'native',
      email: member.email,
      password: member.password,
    });
    expect(right.statusCode).toBe(403);
    expect(right.json()).toMatchObject({
      status: 403,
      detail: deactivatedMessage(customerServiceEmail),
    });
    expect(right.json<{ detail: string }>().detail).toContain(customerServiceEmail);

    const wrong = await login({
      login_type: 'native',
      email: member.email,
      password: 'wrong-password',
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ detail: wrongCredentialsMessage });
  });
});

describe('POST /api/account/token/refresh/', () => {
  it('rotates: a new pair comes back and the new access token works', async () => {
    const { tokens } = await factory.loggedInMember();
    const res = await refresh(tokens.refresh);
    expect(res.statusCode).toBe(200);
    const next = res.json<TokenPair>();
    expect(next.refresh).not.toBe(tokens.refresh);
    expect((await getAccount(next.access)).statusCode).toBe(200);
    expect((await refresh(next.refresh)).statusCode).toBe(200);
  });

  it('revokes the whole family when a used refresh token comes back', async () => {
    const { tokens } = await factory.loggedInMember();
    const rotated = (await refresh(tokens.refresh)).json<TokenPair>();

    const reuse = await refresh(tokens.refresh);
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toMatchObject({ detail: sessionExpiredMessage });
    // The token the thief or the member holds now is dead too.
    expect((await refresh(rotated.refresh)).statusCode).toBe(401);
  });

  it('keeps other sessions of the member alive when one family is revoked', async () => {
    const member = await factory.member();
    const first = await factory.login(member);
    const second = await factory.login(member);
    await refresh(first.refresh);
    await refresh(first.refresh);
    expect((await refresh(second.refresh)).statusCode).toBe(200);
  });

  it('refuses an unknown refresh token', async () => {
    const res = await refresh('A'.repeat(43));
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toContain(problemContentType);
  });

  it('refuses a refresh token older than 30 days', async () => {
    const { tokens } = await factory.loggedInMember();
    t.clock.advance(refreshTokenLifetimeMs + 1000);
    try {
      expect((await refresh(tokens.refresh)).statusCode).toBe(401);
    } finally {
      t.clock.advance(-(refreshTokenLifetimeMs + 1000));
    }
  });

  it.each([[{}], [{ refresh: '' }], [{ refresh: 42 }]])('refuses the body %j', async (body) => {
    const res = await t.request('POST', accountPaths.refresh, { body });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toHaveProperty('refresh');
  });
});

describe('POST /api/account/token/handoff/', () => {
  it('uses the token up and answers two pairs of the same session that rotate apart', async () => {
    const { tokens } = await factory.loggedInMember();
    const res = await handOff(tokens.refresh);
    expect(res.statusCode).toBe(200);
    const { handoff, ...kept } = res.json<TokenHandoff>();
    expect(new Set([tokens.refresh, kept.refresh, handoff.refresh]).size).toBe(3);
    expect(decodeJwt(handoff.access).sid).toBe(decodeJwt(tokens.access).sid);
    // Each tab refreshes its own chain, twice, in either order: no reuse, nothing ends.
    const keptNext = (await refresh(kept.refresh)).json<TokenPair>();
    const handoffNext = (await refresh(handoff.refresh)).json<TokenPair>();
    expect((await refresh(keptNext.refresh)).statusCode).toBe(200);
    expect((await refresh(handoffNext.refresh)).statusCode).toBe(200);
    expect((await getAccount(handoffNext.access)).statusCode).toBe(200);
  });

  it('treats the handed-off token coming back as reuse: the whole session ends', async () => {
    const { tokens } = await factory.loggedInMember();
    const { handoff, ...kept } = (await handOff(tokens.refresh)).json<TokenHandoff>();
    expect((await refresh(tokens.refresh)).statusCode).toBe(401);
    expect((await refresh(kept.refresh)).statusCode).toBe(401);
    expect((await refresh(handoff.refresh)).statusCode).toBe(401);
    expect((await getAccount(handoff.access)).statusCode).toBe(401);
  });

  it('ends both tabs with one logout, since they share the session', async () => {
    const { tokens } = await factory.loggedInMember();
    const { handoff, ...kept } = (await handOff(tokens.refresh)).json<TokenHandoff>();
    expect((await logout(kept.refresh)).statusCode).toBe(204);
    expect((await refresh(handoff.refresh)).statusCode).toBe(401);
    expect((await getAccount(handoff.access)).statusCode).toBe(401);
  });

  it('refuses an unknown token, and a bad body changes nothing', async () => {
    expect((await handOff('C'.repeat(43))).statusCode).toBe(401);
    const { tokens } = await factory.loggedInMember();
    const res = await t.request('POST', accountPaths.handoff, { body: { refresh: 42 } });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain(problemContentType);
    expect((await refresh(tokens.refresh)).statusCode).toBe(200);
  });
});

describe('POST /api/account/logout/', () => {
  it('revokes the session: its refresh token no longer works', async () => {
    const { tokens } = await factory.loggedInMember();
    const res = await logout(tokens.refresh);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await refresh(tokens.refresh)).statusCode).toBe(401);
  });

  it('leaves the member’s other sessions alone', async () => {
    const member = await factory.member();
    const phone = await factory.login(member);
    const laptop = await factory.login(member);
    await logout(laptop.refresh);
    expect((await refresh(phone.refresh)).statusCode).toBe(200);
  });

  it('answers 204 for a token it does not know, revealing nothing', async () => {
    expect((await logout('B'.repeat(43))).statusCode).toBe(204);
  });
});
