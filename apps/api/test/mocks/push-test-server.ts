import { createECDH, randomBytes, randomUUID, type ECDH } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buffer } from 'node:stream/consumers';
import { decrypt } from 'http_ece';
import { decodeJwt, importJWK, jwtVerify } from 'jose';
import type { PushSubscriptionRequest } from '@dental/contracts';

/** A push as the local push service took it: decrypted, with its VAPID claims checked. */
export interface ReceivedPush {
  /** The endpoint it was sent to. */
  endpoint: string;
  /** The decrypted payload, parsed. */
  payload: unknown;
  ttl: number;
  claims: { aud: string; sub: string; exp: number };
}

export interface PushTestServer {
  /** A new browser subscription: a fresh P-256 key and auth secret, as a browser makes them. */
  subscribe(): PushSubscriptionRequest;
  /** Pushes taken so far, in order. */
  received: ReceivedPush[];
  /** Requests refused because decryption or the VAPID check failed, with why. */
  refused: string[];
  /** Answer the next `times` pushes with this HTTP status (404, 410 or 500, …). */
  failNext(status: number, times?: number): void;
  close(): Promise<void>;
}

interface Browser {
  key: ECDH;
  auth: string;
}

/** The uncompressed P-256 point (65 bytes, base64url) as a JWK. */
function publicJwk(publicKey: string) {
  const point = Buffer.from(publicKey, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 key');
  return {
    kty: 'EC',
    crv: 'P-256',
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33).toString('base64url'),
  };
}

/**
 * A local push service standing in for the browsers' (FCM, Mozilla's, Apple's) as the Twilio test
 * server stands in for Twilio: `POST /push/{id}` takes a push only if its `Authorization: vapid
 * t=<JWT>, k=<key>` header is signed (ES256) by `vapidPublicKey`, names this origin as `aud`, has a
 * future `exp` and a `sub`, and its aes128gcm body (RFC 8291) decrypts with the subscription's
 * private key and auth secret, which the test holds as a browser would. Answers 201 as the real
 * services do. Listens on an ephemeral port of 127.0.0.1.
 */
export async function startPushTestServer(vapidPublicKey: string): Promise<PushTestServer> {
  const browsers = new Map<string, Browser>();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  const failures: number[] = [];
  const verifyKey = await importJWK(publicJwk(vapidPublicKey), 'ES256');

  async function take(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', origin);
    const browser = browsers.get(url.pathname.replace(/^\/push\//, ''));
    const body = await buffer(request);
    if (request.method !== 'POST' || browser === undefined) {
      response.writeHead(404).end();
      return;
    }
    const match = /^vapid t=([\w.-]+), k=([\w-]+)$/.exec(request.headers.authorization ?? '');
    if (match?.[1] === undefined || match[2] !== vapidPublicKey) {
      refused.push('no VAPID authorization with the server’s key');
      response.writeHead(401).end();
      return;
    }
    try {
      await jwtVerify(match[1], verifyKey, { audience: origin, algorithms: ['ES256'] });
    } catch (error) {
      refused.push(`VAPID token refused: ${(error as Error).message}`);
      response.writeHead(403).end();
      return;
    }
    const claims = decodeJwt(match[1]);
    if (typeof claims.sub !== 'string' || typeof claims.exp !== 'number') {
      refused.push('VAPID token without sub or exp');
      response.writeHead(403).end();
      return;
    }
    if (request.headers['content-encoding'] !== 'aes128gcm') {
      refused.push('not aes128gcm');
      response.writeHead(415).end();
      return;
    }
    const failure = failures.shift();
    if (failure !== undefined) {
      response.writeHead(failure).end();
      return;
    }
    let payload: unknown;
    try {
      const plain = decrypt(body, {
        version: 'aes128gcm',
        privateKey: browser.key,
        authSecret: browser.auth,
      });
      payload = JSON.parse(plain.toString('utf8'));
    } catch (error) {
      refused.push(`payload did not decrypt: ${(error as Error).message}`);
      response.writeHead(400).end();
      return;
    }
    received.push({
      endpoint: url.href,
      payload,
      ttl: Number(request.headers.ttl),
      claims: { aud: String(claims.aud), sub: claims.sub, exp: claims.exp },
    });
    response.writeHead(201, { Location: `${origin}/messages/${randomUUID()}` }).end();
  }

  const server = createServer((request, response) => {
    take(request, response).catch((error: unknown) => {
      refused.push(`server error: ${(error as Error).message}`);
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${String(port)}`;

  return {
    subscribe() {
      const id = randomUUID();
      const key = createECDH('prime256v1');
      key.generateKeys();
      const auth = randomBytes(16).toString('base64url');
      browsers.set(id, { key, auth });
      return {
        endpoint: `${origin}/push/${id}`,
        expirationTime: null,
        keys: { p256dh: key.getPublicKey().toString('base64url'), auth },
      };
    },
    received,
    refused,
    failNext(status, times = 1) {
      for (let i = 0; i < times; i += 1) failures.push(status);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
        server.closeAllConnections();
      }),
  };
}
