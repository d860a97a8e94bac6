import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  appointment,
  appointmentIdParams,
  appointmentList,
  appointmentListQuery,
  appointmentOutsideRangeQuery,
  outsideRangeCount,
  appointmentPaths,
  appointmentRequest,
  checkUpRecall,
  checkUpRecallRequest,
  problem,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { sendPage } from '#api/lib/pagination';
import type { AppointmentService } from './appointments.service';
import type { CheckUpRecallService } from './check-up-recall.service';

export interface AppointmentRoutesOptions {
  appointments: AppointmentService;
  checkUpRecalls: CheckUpRecallService;
}

function problems<const S extends readonly number[]>(...statuses: S) {
  return Object.fromEntries(statuses.map((status) => [status, problem])) as Record<
    S[number],
    typeof problem
  >;
}

const tags = ['appointments'];
const one = `${appointmentPaths.list}:id/`;

/** The appointment calls (docs/product/appointments.md#appointment-calls). */
export const appointmentRoutes: FastifyPluginAsyncZod<AppointmentRoutesOptions> = (
  app,
  { appointments, checkUpRecalls },
) => {
  const onRequest = app.authenticate;

  // The member's own setting: not delegable, so `?member=` answers 404 (proxy-access.md).
  app.get(
    appointmentPaths.recall,
    {
      onRequest,
      config: { audit: { action: 'read', resourceType: 'check_up_recall' } },
      schema: {
        tags,
        security,
        summary:
          'The member’s check-up recall, the last past appointment it counts from and its due date',
        response: { 200: checkUpRecall, ...problems(401) },
      },
    },
    (request) => checkUpRecalls.get(request.user.id),
  );

  app.put(
    appointmentPaths.recall,
    {
      onRequest,
      config: { audit: { action: 'change', resourceType: 'check_up_recall' } },
      schema: {
        tags,
        security,
        summary:
          'Set the check-up recall: 6 or 12 months after the last past appointment, by e-mail, SMS or both; null months turns it off',
        body: checkUpRecallRequest,
        response: { 200: checkUpRecall, ...problems(400, 401) },
      },
    },
    (request) => checkUpRecalls.set(request.user.id, request.body),
  );

  app.get(
    appointmentPaths.list,
    {
      onRequest,
      config: { audit: { action: 'read', resourceType: 'appointment_list' } },
      schema: {
        tags,
        security,
        summary: 'The member’s upcoming or previous appointments, optionally between two dates',
        querystring: appointmentListQuery,
        response: { 200: appointmentList, ...problems(400, 401) },
      },
    },
    async (request, reply) =>
      sendPage(
        request,
        reply,
        await appointments.list(request.memberId, request.query),
        request.query,
      ),
  );

  app.get(
    appointmentPaths.outsideRange,
    {
      onRequest,
      config: { audit: { action: 'read', resourceType: 'appointment_list' } },
      schema: {
        tags,
        security,
        summary:
          'How many of the member’s upcoming or previous appointments lie before and after the dates',
        querystring: appointmentOutsideRangeQuery,
        response: { 200: outsideRangeCount, ...problems(400, 401) },
      },
    },
    (request) => appointments.outsideRange(request.memberId, request.query),
  );

  app.get(
    one,
    {
      onRequest,
      config: {
        audit: { action: 'read', resourceType: 'appointment', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        security,
        summary: 'One appointment',
        params: appointmentIdParams,
        response: { 200: appointment, ...problems(400, 401, 404) },
      },
    },
    (request) => appointments.get(request.memberId, request.params.id),
  );

  app.post(
    appointmentPaths.list,
    {
      onRequest,
      config: {
        idempotent: true,
        audit: { action: 'create', resourceType: 'appointment', resourceId: 'answer' },
      },
      schema: {
        tags,
        security,
        summary: 'Add an appointment; its reminders are scheduled',
        body: appointmentRequest,
        response: { 201: appointment, ...problems(400, 401, 422) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await appointments.create(request.user.id, request.body)),
  );

  app.put(
    one,
    {
      onRequest,
      config: {
        audit: { action: 'change', resourceType: 'appointment', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        security,
        summary: 'Change an appointment; its reminders are rescheduled',
        params: appointmentIdParams,
        body: appointmentRequest,
        response: { 200: appointment, ...problems(400, 401, 404, 422) },
      },
    },
    (request) => appointments.update(request.user.id, request.params.id, request.body),
  );

  app.delete(
    one,
    {
      onRequest,
      config: {
        audit: { action: 'delete', resourceType: 'appointment', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        security,
        summary: 'Delete an appointment; its reminders still to come are cancelled',
        params: appointmentIdParams,
        response: { 204: z.null().describe('No content'), ...problems(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await appointments.delete(request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  return Promise.resolve();
};
