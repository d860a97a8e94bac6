import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import { OAuth2Server } from 'oauth2-mock-server';

/**
 * Local servers that speak the providers' protocols, for the API tests and the browser journeys
 * (docs/decisions/social-sign-in.md): oauth2-mock-server as Google's and Apple's OpenID Connect
 * servers (authorize with PKCE, token, userinfo, JWKS), and a small stand-in for what
 * oauth2-mock-server lacks: Google's tokeninfo and Facebook's OAuth dialog, token endpoint and
 * Graph API (debug_token, /me).
 */

/** Who the next sign-in at a provider is. */
export interface ProviderIdentity {
  sub: string;
  email?: string;
  email_verified?: boolean;
}

export const socialClientIds = {
  google: 'dental-google-client',
  apple: 'com.example.dental',
  facebook: '424242',
} as const;
const facebookAppSecret = 'facebook-app-secret';

interface FacebookToken {
  appId: string;
  identity: ProviderIdentity;
  expiresAt: number;
}

export interface SocialProviders {
  /** The API's environment for all three providers. */
  env: Record<string, string>;
  /** The identity the providers answer for the next sign-ins (the browser journeys' knob). */
  setIdentity(identity: ProviderIdentity): void;
  /** A Google access token as Google's token endpoint would issue it. */
  googleToken(
    identity: ProviderIdentity,
    options?: { audience?: string; expiresIn?: number },
  ): Promise<string>;
  /** An Apple identity token carrying SHA-256 of `nonce`. */
  appleIdToken(
    identity: ProviderIdentity,
    options: { nonce: string; audience?: string; expiresIn?: number },
  ): Promise<string>;
  facebookToken(
    identity: ProviderIdentity,
    options?: { appId?: string; expiresIn?: number },
  ): string;
  close(): Promise<void>;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

async function startOidc(
  host: string,
  port: number,
  clientId: string,
  current: () => ProviderIdentity,
): Promise<OAuth2Server> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  // Tokens from the authorize/token flow carry the current identity, for our client.
  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    Object.assign(token.payload, current(), { aud: clientId });
  });
  // Like Google's userinfo: who the bearer token belongs to.
  server.service.on(
    'beforeUserinfo',
    (response: { body: unknown; statusCode: number }, req: IncomingMessage) => {
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      try {
        const { sub, email, email_verified } = decodeJwt(token);
        response.body = { sub, email, email_verified };
      } catch {
        response.body = { error: 'invalid_token' };
        response.statusCode = 401;
      }
    },
  );
  await server.start(port, host);
  return server;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    // The browser exchanges Facebook's code from the app's origin.
    'access-control-allow-origin': '*',
  });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the three providers; ports 0 pick free ones. */
export async function startSocialProviders(
  options: { host?: string; ports?: [number, number, number] } = {},
): Promise<SocialProviders> {
  const host = options.host ?? '127.0.0.1';
  const [googlePort, applePort, standInPort] = options.ports ?? [0, 0, 0];
  let identity: ProviderIdentity = { sub: 'provider-user', email_verified: false };
  const current = () => identity;
  const google = await startOidc(host, googlePort, socialClientIds.google, current);
  const apple = await startOidc(host, applePort, socialClientIds.apple, current);
  const googleKeys = createLocalJWKSet({ keys: google.issuer.keys.toJSON() });

  const facebookCodes = new Map<string, { challenge: string; identity: ProviderIdentity }>();
  const facebookTokens = new Map<string, FacebookToken>();
  const issueFacebookToken = (token: FacebookToken) => {
    const value = `EAA${randomUUID().replaceAll('-', '')}`;
    facebookTokens.set(value, token);
    return value;
  };

  const standIn: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const query = url.searchParams;
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'access-control-allow-origin': '*',
          'access-control-allow-headers': 'content-type',
          'access-control-allow-methods': 'GET, POST',
        });
        res.end();
        return;
      }
      switch (url.pathname) {
        case '/test/identity': {
          identity = JSON.parse(await readBody(req)) as ProviderIdentity;
          send(res, 204, null);
          return;
        }
        case '/tokeninfo': {
          // Google's tokeninfo: 400 for a token it did not issue or that expired.
          try {
            const { payload } = await jwtVerify(query.get('access_token') ?? '', googleKeys);
            send(res, 200, {
              aud: payload.aud,
              azp: payload.aud,
              sub: payload.sub,
              exp: String(payload.exp),
            });
          } catch {
            send(res, 400, { error: 'invalid_token', error_description: 'Invalid Value' });
          }
          return;
        }
        case '/dialog/oauth': {
          const code = randomUUID();
          facebookCodes.set(code, { challenge: query.get('code_challenge') ?? '', identity });
          const back = new URL(query.get('redirect_uri') ?? '');
          back.searchParams.set('code', code);
          back.searchParams.set('state', query.get('state') ?? '');
          res.writeHead(302, { location: back.href });
          res.end();
          return;
        }
        case '/oauth/access_token': {
          const form = req.method === 'POST' ? new URLSearchParams(await readBody(req)) : query;
          const code = facebookCodes.get(form.get('code') ?? '');
          facebookCodes.delete(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          const challenge = createHash('sha256').update(verifier).digest('base64url');
          if (code?.challenge !== challenge) {
            send(res, 400, { error: { message: 'Invalid verification code format.' } });
            return;
          }
          const accessToken = issueFacebookToken({
            appId: form.get('client_id') ?? '',
            identity: code.identity,
            expiresAt: nowSeconds() + 3600,
          });
          send(res, 200, { access_token: accessToken, token_type: 'bearer', expires_in: 3600 });
          return;
        }
        case '/debug_token': {
          if (query.get('access_token') !== `${socialClientIds.facebook}|${facebookAppSecret}`) {
            send(res, 400, { error: { message: 'Invalid OAuth access token.' } });
            return;
          }
          const token = facebookTokens.get(query.get('input_token') ?? '');
          send(res, 200, {
            data:
              token === undefined
                ? { app_id: '', is_valid: false }
                : {
                    app_id: token.appId,
                    is_valid: true,
                    user_id: token.identity.sub,
                    expires_at: token.expiresAt,
                  },
          });
          return;
        }
        case '/me': {
          const token = facebookTokens.get(query.get('access_token') ?? '');
          if (token === undefined) {
            send(res, 400, { error: { message: 'Invalid OAuth access token.' } });
            return;
          }
          const { sub, email, email_verified } = token.identity;
          // Facebook answers only a confirmed address.
          send(res, 200, { id: sub, ...(email_verified === true ? { email } : {}) });
          return;
        }
        default:
          send(res, 404, { error: 'not found' });
      }
    })();
  });
  await new Promise<void>((resolve) => standIn.listen(standInPort, host, resolve));
  const standInUrl = `http://${host}:${String((standIn.address() as AddressInfo).port)}`;
  const googleUrl = google.issuer.url ?? '';
  const appleUrl = apple.issuer.url ?? '';

  const signed = (
    server: OAuth2Server,
    claims: Record<string, unknown>,
    expiresIn = 3600,
  ): Promise<string> =>
    server.issuer.buildToken({
      expiresIn,
      scopesOrTransform: (_header, payload) => Object.assign(payload, claims),
    });

  return {
    env: {
      GOOGLE_CLIENT_ID: socialClientIds.google,
      GOOGLE_AUTH_URL: `${googleUrl}/authorize`,
      GOOGLE_TOKEN_URL: `${googleUrl}/token`,
      GOOGLE_USERINFO_URL: `${googleUrl}/userinfo`,
      GOOGLE_TOKENINFO_URL: `${standInUrl}/tokeninfo`,
      APPLE_CLIENT_ID: socialClientIds.apple,
      APPLE_ISSUER: appleUrl,
      APPLE_JWKS_URL: `${appleUrl}/jwks`,
      APPLE_AUTH_URL: `${appleUrl}/authorize`,
      APPLE_TOKEN_URL: `${appleUrl}/token`,
      FACEBOOK_APP_ID: socialClientIds.facebook,
      FACEBOOK_APP_SECRET: facebookAppSecret,
      FACEBOOK_GRAPH_URL: standInUrl,
      FACEBOOK_AUTH_URL: `${standInUrl}/dialog/oauth`,
    },
    setIdentity: (next) => {
      identity = next;
    },
    googleToken: (who, { audience = socialClientIds.google, expiresIn } = {}) =>
      signed(google, { ...who, aud: audience }, expiresIn),
    appleIdToken: (who, { nonce, audience = socialClientIds.apple, expiresIn }) =>
      signed(
        apple,
        { ...who, aud: audience, nonce: createHash('sha256').update(nonce).digest('base64url') },
        expiresIn,
      ),
    facebookToken: (who, { appId = socialClientIds.facebook, expiresIn = 3600 } = {}) =>
      issueFacebookToken({ appId, identity: who, expiresAt: nowSeconds() + expiresIn }),
    close: async () => {
      await Promise.all([
        google.stop(),
        apple.stop(),
        new Promise<void>((resolve) => {
          standIn.close(() => {
            resolve();
          });
        }),
      ]);
    },
  };
}
