import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';
import { z } from 'zod';
import type { Clock } from '#api/clock';
import type { AccessClaims } from '#api/plugins/auth';

/** Access tokens live 15 minutes at most; refresh tokens 30 days, rotated on use
 *  (docs/decisions/refresh-token-rotation.md). */
export const accessTokenLifetimeSeconds = 15 * 60;
export const refreshTokenLifetimeMs = 30 * 24 * 60 * 60 * 1000;

const issuer = 'dental-companion';
const audience = 'dental-companion-api';
const protectedHeader = { alg: 'HS256', typ: 'JWT' } as const;
/** The one header this service signs, as it stands in its tokens. */
const encodedHeader = Buffer.from(JSON.stringify(protectedHeader)).toString('base64url');

/** The claims this service signs, and nothing looser: a token it did not issue never passes. */
const accessTokenPayload = z.object({
  sub: z.string(),
  sid: z.string(),
  iss: z.literal(issuer),
  aud: z.literal(audience),
  iat: z.number(),
  exp: z.number(),
});

/** Signs and checks the short-lived bearer tokens (JWT, HS256 only). */
export class TokenService {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly clock: Clock,
  ) {
    this.key = Buffer.from(secret, 'utf8');
  }

  /** A signed access token for the session, valid for accessTokenLifetimeSeconds from now. */
  issueAccessToken({ userId, sessionId }: AccessClaims): Promise<string> {
    const issuedAt = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader(protectedHeader)
      .setSubject(userId)
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + accessTokenLifetimeSeconds)
      .sign(this.key);
  }

  /**
   * Whom the token was issued to, or null when it is forged, altered, expired or predates
   * sessions (no `sid`). Every API call checks one, so this is synchronous HMAC-SHA256 from
   * node:crypto: jose's Web Crypto check goes through the thread pool and cost about a tenth of
   * an authenticated request (docs/decisions/session-timeouts.md#token-check).
   */
  verifyAccessToken(token: string): AccessClaims | null {
    const parts = token.split('.');
    if (parts.length !== 3) return null;
    const [header, payload, signature] = parts as [string, string, string];
    if (header !== encodedHeader) return null;
    // Compared as text, so only the one base64url spelling of the signature is accepted.
    const expected = Buffer.from(
      createHmac('sha256', this.key).update(`${header}.${payload}`).digest('base64url'),
    );
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    const parsed = accessTokenPayload.safeParse(claims);
    if (!parsed.success) return null;
    const now = Math.floor(this.clock.now().getTime() / 1000);
    if (parsed.data.exp <= now) return null;
    return { userId: parsed.data.sub, sessionId: parsed.data.sid };
  }
}

/** 256 random bits, URL-safe: refresh tokens and password reset keys. */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only this hash is stored, so a copy of the database does not hold usable tokens. */
export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
