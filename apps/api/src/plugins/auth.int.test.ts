import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt, SignJWT } from 'jose';
import { accountPaths } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { loginRequiredMessage, sessionExpiredMessage } from './auth';
import { accessTokenLifetimeSeconds } from '../modules/auth/token.service';

let t: TestApp;
let member: Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;

beforeAll(async () => {
  t = await buildTestApp();
  member = await factories(t).loggedInMember();
});
afterAll(() => t.close());

const getAccount = (headers: Record<string, string>) =>
  t.request('GET', accountPaths.account, { headers });

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

function expectRefused(res: Awaited<ReturnType<typeof getAccount>>, detail: string) {
  expect(res.statusCode).toBe(401);
  expect(res.json()).toMatchObject({ status: 401, detail });
}

describe('app.authenticate', () => {
  it('accepts the access token from login', async () => {
    const res = await getAccount({ authorization: `Bearer ${member.tokens.access}` });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ id: string }>().id).toBe(member.id);
  });

  it.each([
    ['no header', {}],
    ['an empty header', { authorization: '' }],
    ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a bare Bearer', { authorization: 'Bearer' }],
  ])('asks for a login with %s', async (_label, headers: Record<string, string>) => {
    expectRefused(await getAccount(headers), loginRequiredMessage);
  });

  it('refuses a token whose signature was altered', async () => {
    const [header, payload, signature = ''] = member.tokens.access.split('.');
    const flipped = `${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    expectRefused(
      await getAccount({ authorization: `Bearer ${header}.${payload}.${flipped}` }),
      sessionExpiredMessage,
    );
  });

  it('refuses a token whose claims were altered (another member’s id)', async () => {
    const other = await factories(t).member();
    const [header, , signature] = member.tokens.access.split('.');
    const claims = { ...decodeJwt(member.tokens.access), sub: other.id };
    expectRefused(
      await getAccount({ authorization: `Bearer ${header}.${base64url(claims)}.${signature}` }),
      sessionExpiredMessage,
    );
  });

  it('refuses an unsigned token (alg none)', async () => {
    const claims = decodeJwt(member.tokens.access);
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
    expectRefused(await getAccount({ authorization: `Bearer ${unsigned}` }), sessionExpiredMessage);
  });

  it('refuses a token signed with another secret', async () => {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const forged = await new SignJWT()
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(member.id)
      .setIssuer('dental-companion')
      .setAudience('dental-companion-api')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode('another-secret-that-is-long-enough-to-sign'));
    expectRefused(await getAccount({ authorization: `Bearer ${forged}` }), sessionExpiredMessage);
  });

  it('refuses a token with the right secret but another algorithm', async () => {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const otherAlgorithm = await new SignJWT()
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(member.id)
      .setIssuer('dental-companion')
      .setAudience('dental-companion-api')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode(t.config.tokenSecret));
    expectRefused(
      await getAccount({ authorization: `Bearer ${otherAlgorithm}` }),
      sessionExpiredMessage,
    );
  });

  it('refuses garbage', async () => {
    expectRefused(await getAccount({ authorization: 'Bearer not.a.jwt' }), sessionExpiredMessage);
  });

  it('accepts the token until its 15 minutes are over, then refuses it', async () => {
    const { access } = await factories(t).login(member);
    const lifetimeMs = accessTokenLifetimeSeconds * 1000;
    try {
      t.clock.advance(lifetimeMs - 1000);
      expect((await getAccount({ authorization: `Bearer ${access}` })).statusCode).toBe(200);
      t.clock.advance(1000);
      expectRefused(await getAccount({ authorization: `Bearer ${access}` }), sessionExpiredMessage);
    } finally {
      t.clock.advance(-lifetimeMs);
    }
  });
});
