import { z } from 'zod';
import { ConfigError, httpUrl, optional } from './fields';

/** Social sign-in: Google, Apple and Facebook, each at its own addresses unless told others. */
export const identityProvidersEnv = z.object({
  GOOGLE_CLIENT_ID: optional(z.string()),
  GOOGLE_AUTH_URL: optional(httpUrl('GOOGLE_AUTH_URL')),
  GOOGLE_TOKEN_URL: optional(httpUrl('GOOGLE_TOKEN_URL')),
  GOOGLE_TOKENINFO_URL: optional(httpUrl('GOOGLE_TOKENINFO_URL')),
  GOOGLE_USERINFO_URL: optional(httpUrl('GOOGLE_USERINFO_URL')),
  APPLE_CLIENT_ID: optional(z.string()),
  APPLE_ISSUER: optional(z.string()),
  APPLE_JWKS_URL: optional(httpUrl('APPLE_JWKS_URL')),
  APPLE_AUTH_URL: optional(httpUrl('APPLE_AUTH_URL')),
  APPLE_TOKEN_URL: optional(httpUrl('APPLE_TOKEN_URL')),
  FACEBOOK_APP_ID: optional(z.string()),
  FACEBOOK_APP_SECRET: optional(z.string()),
  FACEBOOK_GRAPH_URL: optional(httpUrl('FACEBOOK_GRAPH_URL')),
  FACEBOOK_AUTH_URL: optional(httpUrl('FACEBOOK_AUTH_URL')),
  FACEBOOK_TOKEN_URL: optional(httpUrl('FACEBOOK_TOKEN_URL')),
});

export interface IdentityProvidersSection {
  /** Social sign-in providers; a provider without its client id is off
   *  (docs/decisions/social-sign-in.md). */
  social: SocialSettings;
}

/** Where the browser sends the member and exchanges the code (public values only). */
export interface OAuthClientSettings {
  clientId: string;
  authUrl: string;
  tokenUrl: string;
}

export interface SocialSettings {
  google?: OAuthClientSettings & { tokeninfoUrl: string; userinfoUrl: string };
  apple?: OAuthClientSettings & { issuer: string; jwksUrl: string };
  facebook?: OAuthClientSettings & { appSecret: string; graphUrl: string };
}

/** Each provider is on when its client id is set; the URLs default to the provider's own. */
export function parseIdentityProviders(
  vars: z.infer<typeof identityProvidersEnv>,
): IdentityProvidersSection {
  const social: SocialSettings = {};
  if (vars.GOOGLE_CLIENT_ID !== undefined) {
    social.google = {
      clientId: vars.GOOGLE_CLIENT_ID,
      authUrl: vars.GOOGLE_AUTH_URL ?? 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: vars.GOOGLE_TOKEN_URL ?? 'https://oauth2.googleapis.com/token',
      tokeninfoUrl: vars.GOOGLE_TOKENINFO_URL ?? 'https://oauth2.googleapis.com/tokeninfo',
      userinfoUrl: vars.GOOGLE_USERINFO_URL ?? 'https://openidconnect.googleapis.com/v1/userinfo',
    };
  }
  if (vars.APPLE_CLIENT_ID !== undefined) {
    social.apple = {
      clientId: vars.APPLE_CLIENT_ID,
      issuer: vars.APPLE_ISSUER ?? 'https://appleid.apple.com',
      jwksUrl: vars.APPLE_JWKS_URL ?? 'https://appleid.apple.com/auth/keys',
      authUrl: vars.APPLE_AUTH_URL ?? 'https://appleid.apple.com/auth/authorize',
      tokenUrl: vars.APPLE_TOKEN_URL ?? 'https://appleid.apple.com/auth/token',
    };
  }
  const { FACEBOOK_APP_ID: appId, FACEBOOK_APP_SECRET: appSecret } = vars;
  if ((appId === undefined) !== (appSecret === undefined)) {
    throw new ConfigError(
      'Invalid configuration:\n  FACEBOOK_APP_ID and FACEBOOK_APP_SECRET must be set together.',
    );
  }
  if (appId !== undefined && appSecret !== undefined) {
    const graphUrl = (vars.FACEBOOK_GRAPH_URL ?? 'https://graph.facebook.com/v19.0').replace(
      /\/+$/,
      '',
    );
    social.facebook = {
      clientId: appId,
      appSecret,
      graphUrl,
      authUrl: vars.FACEBOOK_AUTH_URL ?? 'https://www.facebook.com/v19.0/dialog/oauth',
      tokenUrl: vars.FACEBOOK_TOKEN_URL ?? `${graphUrl}/oauth/access_token`,
    };
  }
  return { social };
}

/** Origins of the configured providers' token endpoints, which the browser calls. */
export function socialTokenOrigins(social: SocialSettings): string[] {
  const clients: (OAuthClientSettings | undefined)[] = [
    social.google,
    social.apple,
    social.facebook,
  ];
  return clients.flatMap((client) =>
    client === undefined ? [] : [new URL(client.tokenUrl).origin],
  );
}
