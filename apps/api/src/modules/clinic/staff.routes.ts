import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  acceptInvitationRequest,
  clinicMe,
  clinicStaffPaths,
  inviteStaffRequest,
  registerResponse,
  staffList,
} from '@dental/contracts';
import type { AuditSubjectLookup } from '../audit/audit-declarations';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import type { StaffService } from './staff.service';

export interface StaffRoutesOptions {
  staff: StaffService;
}

const tags = ['clinic'];
const noContent = z.null().describe('No content');
const idParam = z.object({ id: z.uuid() });

/** The new staff account's row is its own, as a member's sign-up is. */
const newAccount: AuditSubjectLookup = (_request, _lookups, answer) => {
  const id = typeof answer?.id === 'string' ? answer.id : null;
  return Promise.resolve(id === null ? null : { memberId: id, actor: id });
};

/** The staff member's own account and the admin's staff management
 *  (docs/decisions/clinic-staff.md). The admin's changes are rows of their own chain. */
export const staffRoutes: FastifyPluginAsyncZod<StaffRoutesOptions> = (app, { staff }) => {
  const admin = { onRequest: app.authenticateStaff, preHandler: app.requireClinicAdmin };

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

  app.post(
    clinicStaffPaths.staff,
    {
      ...admin,
      config: { audit: { action: 'create', resourceType: 'staff_account', resourceId: 'answer' } },
      schema: {
        tags,
        summary:
          'Invite a staff member (admin): an e-mailed link to choose a password, valid 72 hours, once; 409 for an address that has an account',
        security,
        body: inviteStaffRequest,
        response: { 201: z.object({ id: z.uuid() }), ...problems(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await staff.invite(request.staff, request.body)),
  );

  app.get(
    clinicStaffPaths.staff,
    {
      ...admin,
      config: { audit: { none: 'the practice’s staff list, no health data' } },
      schema: {
        tags,
        summary: 'The staff accounts and open invitations (admin)',
        security,
        response: { 200: staffList, ...problems(401, 403) },
      },
    },
    () => staff.list(),
  );

  app.delete(
    `${clinicStaffPaths.staff}:id/`,
    {
      ...admin,
      config: {
        audit: { action: 'delete', resourceType: 'staff_account', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        summary:
          'Deactivate a staff account, whose sessions end at once, or withdraw an open invitation (admin)',
        security,
        params: idParam,
        response: { 204: noContent, ...problems(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      await staff.deactivate(request.staff, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    clinicStaffPaths.acceptInvitation,
    {
      config: { audit: { action: 'sign_up', resourceType: 'account', subject: newAccount } },
      schema: {
        tags,
        summary:
          'Choose a password from an invitation: the staff account is made (a practitioner’s doctor too); the link works once',
        body: acceptInvitationRequest,
        response: { 201: registerResponse, ...problems(400, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await staff.accept(request.body)),
  );

  return Promise.resolve();
};
