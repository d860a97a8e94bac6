import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  accountPaths,
  passkeyPaths,
  problemTypes,
  secondFactorPaths,
  sessionPaths,
  type StaffRole,
} from '@dental/contracts';
import { Forbidden } from '#api/domain-errors';
import { accountOf, type SessionLookup } from '#api/plugins/auth';
import type { StaffProfile } from './staff.repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook of every /api/clinic/ route: a signed-in staff account (else 403) with a
     *  second factor (else 403 second-factor-required, unless the route is marked
     *  `withoutSecondFactor`). Sets `request.user` and `request.staff`. */
    authenticateStaff: (request: FastifyRequest) => Promise<void>;
    /** preHandler hook, after `authenticateStaff`: 403 unless the staff member is a clinic_admin. */
    requireClinicAdmin: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyContextConfig {
    /** A staff route that answers before the second factor is enrolled (it shows no patient
     *  data): the console's own start. */
    withoutSecondFactor?: boolean;
  }
  interface FastifyRequest {
    /** Set by `app.authenticateStaff`; only read it on routes that use that hook. */
    staff: StaffMember;
  }
}

/** The staff member a clinic request acts for. */
export interface StaffMember {
  id: string;
  role: StaffRole;
  name: string;
  /** Their `doctors` row: a practitioner's, null for an admin. */
  practitionerId: string | null;
  email: string;
  /** False only on the routes marked `withoutSecondFactor`. */
  secondFactorEnrolled: boolean;
}

/** The member routes a staff account may call: signing in and out, its sessions, second factor,
 *  passkeys and password, and its own account's name. Every other member route refuses it. */
export const staffAccountRoutes: readonly string[] = [
  `GET ${accountPaths.account}`,
  // Their name (the first admin starts as 'Clinic administrator'); a practitioner's name in the
  // booking screens is their doctor's, which the practitioners' routes edit.
  `PUT ${accountPaths.account}`,
  `POST ${accountPaths.reauthenticate}`,
  `GET ${sessionPaths.sessions}`,
  `DELETE ${sessionPaths.sessions}`,
  `DELETE ${sessionPaths.session(':id')}`,
  `POST ${sessionPaths.changePassword}`,
  `GET ${secondFactorPaths.status}`,
  `POST ${secondFactorPaths.totp}`,
  `POST ${secondFactorPaths.confirmTotp}`,
  `DELETE ${secondFactorPaths.totp}`,
  `GET ${passkeyPaths.list}`,
  `POST ${passkeyPaths.registrationOptions}`,
  `POST ${passkeyPaths.list}`,
  `DELETE ${passkeyPaths.list}:id/`,
];

/** The one clinic route without a staff session: choosing a password from an invitation. */
export const clinicPublicRoutes: readonly string[] = [
  'POST /api/clinic/invitations/accept/',
  // Opened by a ticket that the guarded POST beside it hands out (message-events.routes.ts).
  'GET /api/clinic/messages/events/',
];

export const clinicPathPrefix = '/api/clinic/';

export const staffOnlyMessage = 'This part of the service is for the practice’s staff.';
export const clinicAdminOnlyMessage = 'Only a clinic administrator may do this.';
export const secondFactorRequiredMessage =
  'Set up an authenticator app or a passkey before opening patient data.';

/** 403 for a staff account without a second factor; the console leads them to enrolment. */
export class SecondFactorRequired extends Forbidden {
  override readonly type = problemTypes.secondFactorRequired;

  constructor() {
    super(secondFactorRequiredMessage);
  }
}

export interface StaffGuardOptions extends SessionLookup {
  profile(userId: string): Promise<StaffProfile | undefined>;
}

/**
 * The request guard of the clinic console (docs/decisions/clinic-staff.md): member tokens are
 * refused on every staff route, and staff without a second factor on every one that can show
 * patient data. Register after the auth plugin and before the member-log plugin, which marks the
 * routes of `authenticateStaff` as authenticated so that each must declare its audit.
 */
export const staffGuardPlugin = fp(
  (app: FastifyInstance, options: StaffGuardOptions) => {
    const members = new WeakMap<FastifyRequest, StaffMember>();
    // A clinic route that forgot the guard would open patient data to any caller: refused here.
    app.addHook('onRoute', (route) => {
      const key = `${[route.method].flat().join(',')} ${route.url}`;
      if (!route.url.startsWith(clinicPathPrefix) || route.method === 'HEAD') return;
      if (clinicPublicRoutes.includes(key)) return;
      if (![route.onRequest].flat().includes(app.authenticateStaff)) {
        throw new Error(`${key} is a clinic route without authenticateStaff`);
      }
    });
    app.decorateRequest('staff', {
      getter(this: FastifyRequest) {
        const staff = members.get(this);
        if (staff === undefined)
          throw new Error('request.staff read on a route without authenticateStaff');
        return staff;
      },
    });
    app.decorate('authenticateStaff', async (request: FastifyRequest) => {
      const user = await accountOf(request, options);
      const { role } = user;
      if (role === 'member') throw new Forbidden(staffOnlyMessage);
      // A session ends when its account is deactivated, so the profile is there.
      const profile = await options.profile(user.id);
      if (profile === undefined) throw new Forbidden(staffOnlyMessage);
      if (
        !profile.secondFactorEnrolled &&
        request.routeOptions.config.withoutSecondFactor !== true
      ) {
        throw new SecondFactorRequired();
      }
      request.user = user;
      members.set(request, { id: user.id, role, ...profile });
    });
    app.decorate('requireClinicAdmin', (request: FastifyRequest) =>
      request.staff.role === 'clinic_admin'
        ? Promise.resolve()
        : Promise.reject(new Forbidden(clinicAdminOnlyMessage)),
    );
    return Promise.resolve();
  },
  { name: 'staff-guard', dependencies: ['auth'] },
);
