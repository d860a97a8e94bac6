import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  appointmentPaths,
  delegatedRecordNotFoundMessage,
  delegationMemberParam,
  dentalAiPaths,
  medicalRecordPaths,
  oralPhotoPaths,
} from '@dental/contracts';
import { NotFound } from '#api/domain-errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set from delegableRoutes: a delegate may read this route with `?member=`. */
    delegable?: boolean;
  }
  interface FastifyRequest {
    /**
     * Whose health data the request reads: the owner named by `?member=` once the grant has been
     * checked, else the signed-in member. Only delegable routes read it; `request.user.id`
     * stays the person asking (the audit row's actor).
     */
    memberId: string;
  }
}

/**
 * The read routes a delegate may use with `?member={owner id}` (docs/decisions/proxy-access.md):
 * photos and X-rays (and sets of guided photos), records (their files come as signed links in the record), appointments and
 * Dental AI results. Every other route answers 404 to `?member=`, writes included. The app
 * refuses to start when an entry names no route.
 */
export const delegableRoutes: readonly string[] = [
  `GET ${oralPhotoPaths.list}`,
  `GET ${oralPhotoPaths.outsideRange}`,
  `GET ${oralPhotoPaths.list}:id/`,
  `GET ${oralPhotoPaths.captureSet(':setId')}`,
  `GET ${medicalRecordPaths.list}`,
  `GET ${medicalRecordPaths.outsideRange}`,
  `GET ${medicalRecordPaths.list}:id/`,
  `GET ${appointmentPaths.list}`,
  `GET ${appointmentPaths.outsideRange}`,
  `GET ${appointmentPaths.list}:id/`,
  `GET ${dentalAiPaths.results}`,
  `GET ${dentalAiPaths.root}:id/`,
];

export interface DelegationPluginOptions {
  /** Whether `delegateId` may read `ownerId`'s record now (an accepted grant, owner active). */
  mayRead: (ownerId: string, delegateId: string) => Promise<boolean>;
}

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const notFound = () => new NotFound(delegatedRecordNotFoundMessage);

/**
 * The one place that decides whose record a request reads. Register after the audit plugin:
 * its preValidation has taken the signed-in member as the actor by the time this one runs, so a
 * refused `?member=` is a failed row in the asker's own chain and never touches the owner's.
 */
export const delegationPlugin = fp(
  (app: FastifyInstance, { mayRead }: DelegationPluginOptions) => {
    const unmatched = new Set(delegableRoutes);
    const owners = new WeakMap<FastifyRequest, string>();

    app.decorateRequest('memberId', {
      getter(this: FastifyRequest) {
        return owners.get(this) ?? this.user.id;
      },
    });

    app.addHook('onRoute', (route) => {
      if (typeof route.method !== 'string') return;
      const key = `${route.method} ${route.url}`;
      if (!unmatched.has(key)) return;
      if (route.config?.authenticated !== true) {
        throw new Error(`${key} is delegable but is not authenticated`);
      }
      unmatched.delete(key);
      route.config = { ...route.config, delegable: true };
    });
    app.addHook('onReady', () =>
      unmatched.size > 0
        ? Promise.reject(
            new Error(`Delegable routes that do not exist: ${[...unmatched].join(', ')}`),
          )
        : Promise.resolve(),
    );

    // Before validation, while the query is still as sent: the routes' schemas drop `member`.
    app.addHook('preValidation', async (request) => {
      // The web app's own pages may carry ?member=; only the API is guarded.
      if (!request.url.startsWith('/api/')) return;
      const query = request.query as Record<string, unknown> | null | undefined;
      if (typeof query !== 'object' || query === null) return;
      if (!Object.hasOwn(query, delegationMemberParam)) return;
      if (request.routeOptions.config.delegable !== true) throw notFound();
      const value = query[delegationMemberParam];
      if (typeof value !== 'string' || !uuidShape.test(value)) throw notFound();
      const ownerId = value.toLowerCase();
      // A member may name themself: the web app asks the same way for every record.
      if (ownerId === request.user.id) return;
      if (!(await mayRead(ownerId, request.user.id))) throw notFound();
      owners.set(request, ownerId);
    });

    return Promise.resolve();
  },
  { name: 'delegation', dependencies: ['auth', 'member-log', 'audit'] },
);
