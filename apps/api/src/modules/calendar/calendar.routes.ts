import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply } from 'fastify';
import {
  appointmentIdParams,
  calendarContentType,
  calendarFeedCreated,
  calendarFeedStatus,
  calendarFeedTokenParams,
  calendarPaths,
  calendarRoutePatterns,
  consultationIdParams,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import type { CalendarService } from './calendar.service';

export interface CalendarRoutesOptions {
  calendar: CalendarService;
}

const tags = ['calendar'];
const feedNotAudited = {
  none: 'the feed URL; the feed carries no health detail (docs/decisions/calendar-export.md)',
};
const icsFile = z.string().describe('An iCalendar (RFC 5545) file');

/** Sends an `.ics` text; `fileName` makes it a download. */
function sendIcs(reply: FastifyReply, text: string, fileName?: string) {
  void reply
    .header('content-type', calendarContentType)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff');
  if (fileName !== undefined) {
    void reply.header('content-disposition', `attachment; filename="${fileName}"`);
  }
  return reply.send(text);
}

/** Calendar export (docs/decisions/calendar-export.md). */
export const calendarRoutes: FastifyPluginAsyncZod<CalendarRoutesOptions> = (app, { calendar }) => {
  const onRequest = app.authenticate;

  const eventFiles = [
    {
      path: calendarRoutePatterns.appointment,
      params: appointmentIdParams,
      summary: 'One appointment as an .ics file, its reminders as alarms',
      fileName: 'appointment.ics',
      // The member's own .ics carries the note, unlike the feed.
      audit: { action: 'read', resourceType: 'appointment', resourceId: { param: 'id' } } as const,
      read: (userId: string, id: string) => calendar.appointment(userId, id),
    },
    {
      path: calendarRoutePatterns.reservation,
      params: consultationIdParams,
      summary: 'One booked consultation as an .ics file',
      fileName: 'consultation.ics',
      audit: { action: 'read', resourceType: 'reservation', resourceId: { param: 'id' } } as const,
      read: (userId: string, id: string) => calendar.reservation(userId, id),
    },
  ];
  for (const event of eventFiles) {
    app.get(
      event.path,
      {
        onRequest,
        config: { audit: event.audit },
        schema: {
          tags,
          security,
          summary: event.summary,
          params: event.params,
          response: { 200: icsFile, ...problems(400, 401, 404) },
        },
      },
      async (request, reply) =>
        sendIcs(reply, await event.read(request.user.id, request.params.id), event.fileName),
    );
  }

  app.get(
    calendarPaths.feed,
    {
      onRequest,
      config: { audit: feedNotAudited },
      schema: {
        tags,
        security,
        summary: 'Whether the member has a calendar feed, and since when',
        response: { 200: calendarFeedStatus, ...problems(401) },
      },
    },
    (request) => calendar.feedStatus(request.user.id),
  );

  app.post(
    calendarPaths.feed,
    {
      onRequest,
      config: { audit: feedNotAudited },
      schema: {
        tags,
        security,
        summary: 'A new private feed URL (shown once); the previous one stops working',
        response: { 201: calendarFeedCreated, ...problems(401) },
      },
    },
    async (request, reply) => reply.code(201).send(await calendar.createFeed(request.user.id)),
  );

  app.delete(
    calendarPaths.feed,
    {
      onRequest,
      config: { audit: feedNotAudited },
      schema: {
        tags,
        security,
        summary: 'Revoke the calendar feed: its URL answers 404 from now on',
        response: { 204: z.null().describe('No content'), ...problems(401) },
      },
    },
    async (request, reply) => {
      await calendar.revokeFeed(request.user.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    calendarRoutePatterns.feedFile,
    {
      config: { audit: feedNotAudited },
      schema: {
        tags,
        summary: 'The private calendar feed; the token in the URL is its only credential',
        params: calendarFeedTokenParams,
        response: { 200: icsFile, ...problems(400, 404) },
      },
    },
    async (request, reply) => sendIcs(reply, await calendar.feed(request.params.token)),
  );

  return Promise.resolve();
};
