import { createHash } from 'node:crypto';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { z } from 'zod';
import { socialProviderNames, type SocialProvider } from '@dental/contracts';
import type { Clock } from '#api/clock';
import type { SocialSettings } from '#api/config';
import {
  BadRequest,
  ServiceUnavailable,
  Unauthorized,
  UnprocessableEntity,
} from '#api/domain-errors';

/** Who the provider says the token belongs to. */
export interface SocialIdentity {
  provider: SocialProvider;
  /** The provider's stable id of the person. */
  subject: string;
  email: string | null;
  /** The provider vouches that the person controls `email`. */
  emailVerified: boolean;
}

export function notAvailableMessage(provider: SocialProvider): string {
  return `Sign-in with ${socialProviderNames[provider]} is not available on this server.`;
}

export function tokenRejectedMessage(provider: SocialProvider): string {
  return `${socialProviderNames[provider]} could not confirm who you are. Please try again.`;
}

/** 401: the token is forged, expired, for another app, or the provider refused it. */
class SocialTokenRejected extends Unauthorized {
  constructor(provider: SocialProvider) {
    super(tokenRejectedMessage(provider));
  }
}

/** Apple's identity token carries SHA-256 of the nonce the browser made; the browser sends the
 *  nonce itself, so a token copied from elsewhere is useless without it. */
export function hashNonce(nonce: string): string {
  return createHash('sha256').update(nonce).digest('base64url');
}

const googleTokenInfo = z.object({
  aud: z.string().optional(),
  azp: z.string().optional(),
  sub: z.string().optional(),
  exp: z.coerce.number(),
});
const googleUserInfo = z.object({
  sub: z.string().min(1),
  email: z.string().optional(),
  email_verified: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
});
const facebookDebugToken = z.object({
  data: z.object({
    app_id: z.string(),
    is_valid: z.boolean(),
    user_id: z.string().optional(),
    expires_at: z.number().optional(),
  }),
});
const facebookMe = z.object({ id: z.string().min(1), email: z.string().optional() });
const appleClaims = z.object({
  sub: z.string().min(1),
  nonce: z.string().optional(),
  email: z.string().optional(),
  email_verified: z.union([z.boolean(), z.enum(['true', 'false'])]).optional(),
});

/**
 * Checks a provider's token with the provider before anything trusts it
 * (docs/decisions/social-sign-in.md): Google's tokeninfo (audience = our client id, expiry) and
 * userinfo; Apple's identity token signature against Apple's keys (issuer, audience, expiry,
 * nonce); Facebook's debug_token (our app id, validity, expiry) and /me.
 */
export class SocialIdentityVerifier {
  private readonly appleKeys: JWTVerifyGetKey | undefined;

  constructor(
    private readonly settings: SocialSettings,
    private readonly clock: Clock,
  ) {
    this.appleKeys =
      settings.apple === undefined
        ? undefined
        : createRemoteJWKSet(new URL(settings.apple.jwksUrl));
  }

  async verify(provider: SocialProvider, token: string, nonce?: string): Promise<SocialIdentity> {
    switch (provider) {
      case 'google':
        return this.verifyGoogle(token);
      case 'apple':
        return this.verifyApple(token, nonce);
      case 'facebook':
        return this.verifyFacebook(token);
    }
  }

  private async verifyGoogle(token: string): Promise<SocialIdentity> {
    const google = this.settings.google;
    if (google === undefined) throw new UnprocessableEntity(notAvailableMessage('google'));
    const info = await this.fetchJson(
      'google',
      `${google.tokeninfoUrl}?access_token=${encodeURIComponent(token)}`,
      googleTokenInfo,
    );
    // A token Google issued to another app must not sign anyone in here.
    const forUs = info.aud === google.clientId || info.azp === google.clientId;
    if (!forUs || info.exp * 1000 <= this.clock.now().getTime()) {
      throw new SocialTokenRejected('google');
    }
    const user = await this.fetchJson('google', google.userinfoUrl, googleUserInfo, {
      authorization: `Bearer ${token}`,
    });
    if (info.sub !== undefined && info.sub !== user.sub) throw new SocialTokenRejected('google');
    return {
      provider: 'google',
      subject: user.sub,
      email: user.email ?? null,
      emailVerified: isTrue(user.email_verified),
    };
  }

  private async verifyApple(token: string, nonce: string | undefined): Promise<SocialIdentity> {
    const apple = this.settings.apple;
    if (apple === undefined || this.appleKeys === undefined) {
      throw new UnprocessableEntity(notAvailableMessage('apple'));
    }
    if (nonce === undefined) {
      throw new BadRequest('The sign-in nonce is missing.', {
        nonce: ['The sign-in nonce is missing.'],
      });
    }
    let payload: unknown;
    try {
      ({ payload } = await jwtVerify(token, this.appleKeys, {
        issuer: apple.issuer,
        audience: apple.clientId,
        currentDate: this.clock.now(),
        algorithms: ['RS256', 'ES256'],
      }));
    } catch (error) {
      if (error instanceof joseErrors.JOSEError && !isKeySetUnreachable(error)) {
        throw new SocialTokenRejected('apple');
      }
      throw unreachable('apple', error);
    }
    const claims = appleClaims.safeParse(payload);
    if (!claims.success || claims.data.nonce !== hashNonce(nonce)) {
      throw new SocialTokenRejected('apple');
    }
    return {
      provider: 'apple',
      subject: claims.data.sub,
      email: claims.data.email ?? null,
      emailVerified: isTrue(claims.data.email_verified),
    };
  }

  private async verifyFacebook(token: string): Promise<SocialIdentity> {
    const facebook = this.settings.facebook;
    if (facebook === undefined) throw new UnprocessableEntity(notAvailableMessage('facebook'));
    const appToken = `${facebook.clientId}|${facebook.appSecret}`;
    const { data } = await this.fetchJson(
      'facebook',
      `${facebook.graphUrl}/debug_token?${new URLSearchParams({ input_token: token, access_token: appToken }).toString()}`,
      facebookDebugToken,
    );
    const expired =
      data.expires_at !== undefined &&
      data.expires_at !== 0 &&
      data.expires_at * 1000 <= this.clock.now().getTime();
    if (!data.is_valid || data.app_id !== facebook.clientId || expired) {
      throw new SocialTokenRejected('facebook');
    }
    const me = await this.fetchJson(
      'facebook',
      `${facebook.graphUrl}/me?${new URLSearchParams({ fields: 'id,email', access_token: token }).toString()}`,
      facebookMe,
    );
    if (data.user_id !== undefined && data.user_id !== me.id) {
      throw new SocialTokenRejected('facebook');
    }
    // The Graph API answers only a confirmed e-mail address.
    return {
      provider: 'facebook',
      subject: me.id,
      email: me.email ?? null,
      emailVerified: me.email !== undefined,
    };
  }

  /** A provider's JSON answer; a 4xx means it refused the token, anything else that it could not
   *  be asked. The token never reaches an error message or a log. */
  private async fetchJson<T>(
    provider: SocialProvider,
    url: string,
    schema: z.ZodType<T>,
    headers: Record<string, string> = {},
  ): Promise<T> {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { accept: 'application/json', ...headers },
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw unreachable(provider, error);
    }
    if (response.status >= 400 && response.status < 500) throw new SocialTokenRejected(provider);
    if (!response.ok) throw unreachable(provider, new Error(`HTTP ${String(response.status)}`));
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw new SocialTokenRejected(provider);
    return parsed.data;
  }
}

function isTrue(value: boolean | 'true' | 'false' | undefined): boolean {
  return value === true || value === 'true';
}

/** jose reports a key set it could not fetch as a timeout or a plain fetch error. */
function isKeySetUnreachable(error: joseErrors.JOSEError): boolean {
  return error instanceof joseErrors.JWKSTimeout;
}

function unreachable(provider: SocialProvider, cause: unknown): ServiceUnavailable {
  return new ServiceUnavailable(
    `${socialProviderNames[provider]} cannot be reached just now. Please try again later.`,
    cause,
  );
}
