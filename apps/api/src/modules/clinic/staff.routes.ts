import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clinicMe, clinicStaffPaths } from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
const tags = ['clinic'];

/** The staff member's own account and the admin's staff management
 *  (docs/decisions/clinic-staff.md). */
export const staffRoutes: FastifyPluginAsyncZod = (app) => {
  app.get(
    clinicStaffPaths.me,
    {
      onRequest: app.authenticateStaff,
      config: {
        // The console's first call: it tells whether to lead the user to enrolment.
        withoutSecondFactor: true,
        audit: { none: 'the staff member’s own account, no health data' },
      },
      schema: {
        tags,
        summary: 'The signed-in staff member; answers before a second factor is enrolled',
        security,
        response: { 200: clinicMe, ...problems(401, 403) },
      },
    },
    ({ staff: me }) => ({
      id: me.id,
      name: me.name,
      email: me.email,
      role: me.role,
      practitioner_id: me.practitionerId,
      second_factor_enrolled: me.secondFactorEnrolled,
    }),
  );

  return Promise.resolve();
};
