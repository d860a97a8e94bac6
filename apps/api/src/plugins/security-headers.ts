import { IncomingMessage, type ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * One strict policy for the single-page app and the API docs alike: scripts only from our own
 * origin (no inline scripts), no framing, no sniffing, no referrer. Inline styles stay allowed
 * because Mantine and Swagger UI set style attributes. No CORS plugin: the app and the API share
 * one origin, so browsers on other sites cannot read our answers.
 */
export const contentSecurityPolicy = {
  defaultSrc: ["'self'"],
  // WebAssembly may be compiled (the browser's HEIC decoder, docs/decisions/phone-photos.md);
  // this allows no eval of JavaScript.
  scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  mediaSrc: ["'self'", 'blob:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * Powerful browser features the app never uses are off for it and anything it embeds, so an
 * injected script cannot ask for the microphone or the member's location. The camera is ours
 * alone, for 'Take photos' (docs/decisions/guided-capture.md); the image viewer goes full screen
 * (docs/decisions/http-hardening.md).
 */
export const permissionsPolicy = [
  'accelerometer=()',
  'autoplay=()',
  'bluetooth=()',
  'camera=(self)',
  'display-capture=()',
  'fullscreen=(self)',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'serial=()',
  'usb=()',
].join(', ');

export interface SecurityHeadersOptions {
  /** Origins the browser may also call: the token endpoints of the configured social sign-in
   *  providers, where the app exchanges its code (docs/decisions/social-sign-in.md). */
  connectOrigins: string[];
}

/**
 * The headers helmet sets for these options. They depend on nothing in the request, so they are
 * worked out once: @fastify/helmet built helmet's middleware again for every request.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string) {
      headers[name.toLowerCase()] = value;
    },
    removeHeader(name: string) {
      // Helmet removes X-Powered-By, which Fastify never sets.
      Reflect.deleteProperty(headers, name.toLowerCase());
    },
  };
  helmet(options)(
    new IncomingMessage(new Socket()),
    response as unknown as ServerResponse,
    (error?: unknown) => {
      if (error !== undefined) throw new Error('helmet refused its options', { cause: error });
    },
  );
  return headers;
}

export const securityHeadersPlugin = fp(
  (app: FastifyInstance, { connectOrigins }: SecurityHeadersOptions) => {
    const headers = helmetHeaders({
      // No upgrade-insecure-requests: `npm start` serves plain http on localhost.
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          ...contentSecurityPolicy,
          connectSrc: [...contentSecurityPolicy.connectSrc, ...connectOrigins],
        },
      },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'no-referrer' },
      crossOriginEmbedderPolicy: false,
    });
    headers['permissions-policy'] = permissionsPolicy;
    app.addHook('onRequest', (_request, reply, done) => {
      void reply.headers(headers);
      done();
    });
    // Health data: API answers may not be stored by browsers or shared caches.
    app.addHook('onSend', async (request, reply) => {
      if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
        void reply.header('cache-control', 'no-store');
      }
    });
    return Promise.resolve();
  },
  { name: 'security-headers' },
);
