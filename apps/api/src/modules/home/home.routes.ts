import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { homePaths, problem, upNext } from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import type { HomeService } from './home.service';

export interface HomeRoutesOptions {
  home: HomeService;
}

/** Home's strip of what is next: one read, one audit row (docs/decisions/home-up-next.md). */
export const homeRoutes: FastifyPluginAsyncZod<HomeRoutesOptions> = (app, { home }) => {
  app.get(
    homePaths.upNext,
    {
      onRequest: app.authenticate,
      config: { audit: { action: 'read', resourceType: 'home_up_next' } },
      schema: {
        tags: ['home'],
        security,
        summary:
          'The member’s next appointment and consultation, a new doctor’s summary and recent uploads',
        response: { 200: upNext, 401: problem },
      },
    },
    (request) => home.upNext(request.memberId),
  );
  return Promise.resolve();
};
