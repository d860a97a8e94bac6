import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifyHelmet from '@fastify/helmet';

/**
 * One strict policy for the single-page app and the API docs alike: scripts only from our own
 * origin (no inline scripts), no framing, no sniffing, no referrer. Inline styles stay allowed
 * because Mantine and Swagger UI set style attributes. No CORS plugin: the app and the API share
 * one origin, so browsers on other sites cannot read our answers.
 */
export const contentSecurityPolicy = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
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

export interface SecurityHeadersOptions {
  /** Origins the browser may also call: the token endpoints of the configured social sign-in
   *  providers, where the app exchanges its code (docs/decisions/social-sign-in.md). */
  connectOrigins: string[];
}

export const securityHeadersPlugin = fp(
  async (app: FastifyInstance, { connectOrigins }: SecurityHeadersOptions) => {
    await app.register(fastifyHelmet, {
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
    // Health data: API answers may not be stored by browsers or shared caches.
    app.addHook('onSend', async (request, reply) => {
      if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
        void reply.header('cache-control', 'no-store');
      }
    });
  },
  { name: 'security-headers' },
);
