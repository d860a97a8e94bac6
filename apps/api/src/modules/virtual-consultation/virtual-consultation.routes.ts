import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bookReservationRequest,
  complaint,
  consultationForm,
  consultationPaths,
  doctorsWithSlots,
  consultationIdParams,
  reservationAnswer,
  reservationDetail,
  reservationList,
  reservationListQuery,
  slotQuery,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { sendPage } from '#api/lib/pagination';
import { problems } from '#api/lib/problem-responses';
import type { ConsultationService } from './virtual-consultation.service';

export interface ConsultationRoutesOptions {
  consultations: ConsultationService;
}

const tags = ['virtual-consultation'];
const noContent = z.null().describe('No content');

/** docs/product/consultation.md#reservation-calls, plus booking
 *  (docs/decisions/consultation-booking.md). */
export const consultationRoutes: FastifyPluginAsyncZod<ConsultationRoutesOptions> = (
  app,
  { consultations },
) => {
  const authenticated = { onRequest: app.authenticate };

  app.get(
    consultationPaths.reservations,
    {
      ...authenticated,
      config: { audit: { action: 'read', resourceType: 'reservation_list' } },
      schema: {
        tags,
        security,
        summary:
          'Upcoming reservations (future, soonest first) or past ones (history, latest first)',
        querystring: reservationListQuery,
        response: { 200: reservationList, ...problems(400, 401) },
      },
    },
    async (request, reply) =>
      sendPage(
        request,
        reply,
        await consultations.list(request.user.id, request.query.period, request.query),
        request.query,
      ),
  );

  app.post(
    consultationPaths.reservations,
    {
      ...authenticated,
      config: {
        idempotent: true,
        audit: { action: 'create', resourceType: 'reservation', resourceId: 'answer' },
      },
      schema: {
        tags,
        security,
        summary: 'Book a free slot with the answers to the consultation form',
        body: bookReservationRequest,
        response: { 201: reservationDetail, ...problems(400, 401, 409, 422) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await consultations.book(request.user.id, request.body)),
  );

  app.get(
    `${consultationPaths.reservations}:id/`,
    {
      ...authenticated,
      config: {
        audit: { action: 'read', resourceType: 'reservation', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        security,
        summary: 'One reservation with its answers in form order',
        params: consultationIdParams,
        response: { 200: reservationDetail, ...problems(400, 401, 404) },
      },
    },
    (request) => consultations.get(request.user.id, request.params.id),
  );

  app.delete(
    `${consultationPaths.reservations}:id/`,
    {
      ...authenticated,
      config: {
        audit: { action: 'delete', resourceType: 'reservation', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        security,
        summary: 'Cancel an upcoming reservation (a past one answers 409)',
        params: consultationIdParams,
        response: { 204: noContent, ...problems(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      await consultations.cancel(request.user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/form/answer/:id/',
    {
      ...authenticated,
      config: {
        audit: {
          action: 'read',
          resourceType: 'consultation_answers',
          resourceId: { param: 'id' },
        },
      },
      schema: {
        tags,
        security,
        summary: 'One answer of the member’s reservation',
        params: consultationIdParams,
        response: { 200: reservationAnswer, ...problems(400, 401, 404) },
      },
    },
    (request) => consultations.answer(request.user.id, request.params.id),
  );

  app.get(
    '/api/complaint/:id/',
    {
      ...authenticated,
      config: {
        audit: {
          action: 'read',
          resourceType: 'consultation_summary',
          resourceId: { param: 'id' },
        },
      },
      schema: {
        tags,
        security,
        summary: 'The doctor summary of a past consultation; images as signed links joined by ||',
        params: consultationIdParams,
        response: { 200: complaint, ...problems(400, 401, 404) },
      },
    },
    (request) => consultations.complaint(request.user.id, request.params.id),
  );

  app.get(
    consultationPaths.doctors,
    {
      ...authenticated,
      config: { audit: { none: 'the clinic’s doctors and free slots, no member data' } },
      schema: {
        tags,
        security,
        summary:
          'Doctors with their free slots in a window (instants; shown in the patient’s zone)',
        querystring: slotQuery,
        response: { 200: doctorsWithSlots, ...problems(400, 401) },
      },
    },
    (request) => consultations.doctors(request.query),
  );

  app.get(
    consultationPaths.form,
    {
      ...authenticated,
      config: { audit: { none: 'the clinic’s questions, no member data' } },
      schema: {
        tags,
        security,
        summary: 'The consultation form a booking answers',
        response: { 200: consultationForm, ...problems(401, 404) },
      },
    },
    () => consultations.form(),
  );

  return Promise.resolve();
};
