import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { careTeamAccess, careTeamGrantRequest, careTeamPaths } from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import type { CareTeamService } from './care-team.service';

export interface CareTeamRoutesOptions {
  careTeam: CareTeamService;
}

const tags = ['care-team'];
const noContent = z.null().describe('No content');

/**
 * 'Share with my dental practice' (docs/decisions/care-team-access.md). None of these is
 * delegable: a person who views a member's record never shares or revokes for them, and
 * `?member=` answers 404 here (docs/decisions/proxy-access.md).
 */
export const careTeamRoutes: FastifyPluginAsyncZod<CareTeamRoutesOptions> = (app, { careTeam }) => {
  const onRequest = app.authenticate;

  app.post(
    careTeamPaths.access,
    {
      onRequest,
      config: { audit: { action: 'create', resourceType: 'care_team_access' } },
      schema: {
        tags,
        security,
        summary:
          'Share all photos, X-rays and records with the practice, or the chosen ones; ' +
          'replaces what was shared',
        body: careTeamGrantRequest,
        response: { 200: careTeamAccess, ...problems(400, 401, 404) },
      },
    },
    (request) => careTeam.grant(request.user.id, request.body),
  );

  app.get(
    careTeamPaths.access,
    {
      onRequest,
      config: { audit: { none: 'the scope and item ids of the grant, no health content' } },
      schema: {
        tags,
        security,
        summary: 'What the member shares with the practice now',
        response: { 200: careTeamAccess, ...problems(401) },
      },
    },
    (request) => careTeam.access(request.user.id),
  );

  app.delete(
    careTeamPaths.access,
    {
      onRequest,
      config: { audit: { action: 'delete', resourceType: 'care_team_access' } },
      schema: {
        tags,
        security,
        summary: 'Stop sharing with the practice: its staff see nothing from now on',
        response: { 204: noContent, ...problems(401) },
      },
    },
    async (request, reply) => {
      await careTeam.revoke(request.user.id);
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};
