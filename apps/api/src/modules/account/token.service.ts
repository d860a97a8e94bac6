import { createHash, randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '#api/clock';
import type { AccessClaims } from '#api/plugins/auth';

/** Access tokens live 15 minutes at most (issue 2); refresh tokens 30 days, rotated on use. */
export const accessTokenLifetimeSeconds = 15 * 60;
export const refreshTokenLifetimeMs = 30 * 24 * 60 * 60 * 1000;

/** Who an access token speaks for: the member and the session (refresh family) it belongs to. */

const issuer = 'dental-companion';
const audience = 'dental-companion-api';

/** Signs and checks the short-lived bearer tokens (JWT, HS256 only). */
export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    secret: string,
    private readonly clock: Clock,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /** A signed access token for the session, valid for accessTokenLifetimeSeconds from now. */
  issueAccessToken({ userId, sessionId }: AccessClaims): Promise<string> {
    const issuedAt = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + accessTokenLifetimeSeconds)
      .sign(this.key);
  }

  /** Whom the token was issued to, or null when it is forged, altered, expired or predates
   *  sessions (no `sid`). */
  async verifyAccessToken(token: string): Promise<AccessClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer,
        audience,
        currentDate: this.clock.now(),
        requiredClaims: ['sub', 'sid', 'iat', 'exp'],
        clockTolerance: 0,
      });
      const { sub, sid } = payload;
      return typeof sub === 'string' && typeof sid === 'string'
        ? { userId: sub, sessionId: sid }
        : null;
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
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
