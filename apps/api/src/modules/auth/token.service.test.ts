import { describe, expect, it } from 'vitest';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { TestClock } from '#api-test/test-clock';
import {
  accessTokenLifetimeSeconds,
  hashOpaqueToken,
  newOpaqueToken,
  TokenService,
} from './token.service';

const secret = 'a-test-secret-of-at-least-thirty-two-characters';
const userId = '3f0a2c3e-8a8e-4a53-9b8e-0d7f3b1f1a11';
const sessionId = '9b2d7c4e-1f3a-4c5b-8d6e-7f8091a2b3c4';
const claims = { userId, sessionId };
const jwtHeader = { alg: 'HS256', typ: 'JWT' };

describe('TokenService', () => {
  it('issues an HS256 token for the user and session that lives 15 minutes', async () => {
    const clock = new TestClock(new Date('2025-03-01T10:00:00Z'));
    const token = await new TokenService(secret, clock).issueAccessToken(claims);
    expect(decodeProtectedHeader(token).alg).toBe('HS256');
    const decoded = decodeJwt(token);
    expect(decoded).toMatchObject({ sub: userId, sid: sessionId, iat: 1_740_823_200 });
    expect(decoded.exp).toBe(1_740_823_200 + accessTokenLifetimeSeconds);
    expect(accessTokenLifetimeSeconds).toBe(900);
  });

  it('verifies its own token until the moment it expires', async () => {
    const clock = new TestClock();
    const tokens = new TokenService(secret, clock);
    const token = await tokens.issueAccessToken(claims);
    clock.advance(accessTokenLifetimeSeconds * 1000 - 1000);
    expect(tokens.verifyAccessToken(token)).toEqual(claims);
    clock.advance(1000);
    expect(tokens.verifyAccessToken(token)).toBeNull();
  });

  it('refuses a token made with another secret', async () => {
    const clock = new TestClock();
    const token = await new TokenService(`${secret}-other`, clock).issueAccessToken(claims);
    expect(new TokenService(secret, clock).verifyAccessToken(token)).toBeNull();
  });

  it('refuses a token without a session, as issued before sessions were tracked', async () => {
    const clock = new TestClock();
    const now = Math.floor(clock.now().getTime() / 1000);
    const sessionless = await new SignJWT()
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer('dental-companion')
      .setAudience('dental-companion-api')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode(secret));
    expect(new TokenService(secret, clock).verifyAccessToken(sessionless)).toBeNull();
  });

  it.each(['', 'abc', 'a.b.c', 'a.b.c.d', 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.'])(
    'answers null for the malformed token %j',
    (token) => {
      expect(new TokenService(secret, new TestClock()).verifyAccessToken(token)).toBeNull();
    },
  );

  it('refuses its own token once the claims, the header or the signature are changed', async () => {
    const clock = new TestClock();
    const tokens = new TokenService(secret, clock);
    const [header, payload, signature] = (await tokens.issueAccessToken(claims)).split('.') as [
      string,
      string,
      string,
    ];
    const otherPayload = Buffer.from(
      JSON.stringify({ ...decodeJwt(`${header}.${payload}.${signature}`), sub: 'someone-else' }),
    ).toString('base64url');
    const otherHeader = Buffer.from('{"alg":"HS256"}').toString('base64url');
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    for (const forged of [
      `${header}.${otherPayload}.${signature}`,
      `${otherHeader}.${payload}.${signature}`,
      `${header}.${payload}.${flipped}`,
      `${header}.${payload}.${signature}=`,
      `${header}.${payload}.`,
    ]) {
      expect(tokens.verifyAccessToken(forged)).toBeNull();
    }
    expect(tokens.verifyAccessToken(`${header}.${payload}.${signature}`)).toEqual(claims);
  });

  it.each([
    ['another issuer', { iss: 'someone-else' }],
    ['another audience', { aud: 'another-api' }],
    ['no expiry', { exp: undefined }],
    ['a session id that is not text', { sid: 42 }],
    ['a header other than the one it signs', {}, { alg: 'HS256' }],
  ])('refuses a correctly signed token with %s', async (_case, change, header = jwtHeader) => {
    const clock = new TestClock();
    const now = Math.floor(clock.now().getTime() / 1000);
    const payload = {
      sub: userId,
      sid: sessionId,
      iss: 'dental-companion',
      aud: 'dental-companion-api',
      iat: now,
      exp: now + 60,
      ...change,
    };
    const token = await new SignJWT(payload)
      .setProtectedHeader(header)
      .sign(new TextEncoder().encode(secret));
    expect(new TokenService(secret, clock).verifyAccessToken(token)).toBeNull();
  });
});

describe('opaque tokens', () => {
  it('carry 256 random bits in base64url', () => {
    const tokens = new Set(Array.from({ length: 100 }, newOpaqueToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('are stored as a SHA-256 hash that does not contain them', () => {
    const token = newOpaqueToken();
    const hash = hashOpaqueToken(token);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).toBe(hashOpaqueToken(token));
    expect(hash).not.toBe(hashOpaqueToken(newOpaqueToken()));
  });
});
