import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const docsPrefix = '/api/docs';

/** OpenAPI 3 generated from the routes' zod contracts: /api/docs/json, browsable at /api/docs. */
export const openApiPlugin = fp(
  async (app: FastifyInstance, { companyName }: { companyName: string }) => {
    await app.register(fastifySwagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: `${companyName} API`,
          description:
            'The API behind the patient web app. Errors are RFC 9457 problem details (application/problem+json).',
          version: '1.0.0',
        },
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(fastifySwaggerUi, { routePrefix: docsPrefix });
  },
  { name: 'openapi' },
);
