import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  clinicMessagePaths,
  clinicMessageThread,
  clinicMessageThreadList,
  clinicMessageThreadQuery,
  clinicMessageThreadSummary,
  createdMessage,
  messageThreadChange,
  messageThreadParams,
  newStaffMessage,
  unreadMessages,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { nextPagePath } from '#api/lib/pagination';
import { problems } from '#api/lib/problem-responses';
import type { MessageService } from './messages.service';

export interface ClinicMessageRoutesOptions {
  messages: MessageService;
}

const tags = ['clinic'];
const threadPattern = `${clinicMessagePaths.threads}:id/`;

/**
 * The practice's side of the members' conversations (docs/decisions/care-messages.md): every
 * staff member of the practice reads every thread; each thread read and each reply joins the
 * member's audit trail with the staff member as actor.
 */
export const clinicMessageRoutes: FastifyPluginAsyncZod<ClinicMessageRoutesOptions> = (
  app,
  { messages },
) => {
  const onRequest = app.authenticateStaff;

  app.get(
    clinicMessagePaths.threads,
    {
      onRequest,
      config: {
        audit: { none: 'the service writes one row per thread shown into its member’s chain' },
      },
      schema: {
        tags,
        security,
        summary: 'The open or closed conversations, newest message first, with their assignee',
        querystring: clinicMessageThreadQuery,
        response: { 200: clinicMessageThreadList, ...problems(400, 401, 403) },
      },
    },
    async (request) => {
      const page = await messages.staffThreads(request.staff, request.query);
      return {
        results: page.items,
        next: page.more ? nextPagePath(request, request.query) : null,
      };
    },
  );

  app.get(
    clinicMessagePaths.unread,
    {
      onRequest,
      config: { audit: { none: 'a count of unread messages, no health content' } },
      schema: {
        tags,
        security,
        summary: 'How many members’ messages in open conversations no staff member has read',
        response: { 200: unreadMessages, ...problems(401, 403) },
      },
    },
    () => messages.staffUnread(),
  );

  app.get(
    threadPattern,
    {
      onRequest,
      config: { audit: { none: 'the service writes the read into the member’s chain' } },
      schema: {
        tags,
        security,
        summary:
          'A conversation with the attached items and file links for this staff member; ' +
          'the member’s messages become read',
        params: messageThreadParams,
        response: { 200: clinicMessageThread, ...problems(401, 403, 404) },
      },
    },
    (request) => messages.staffThread(request.staff, request.params.id),
  );

  app.post(
    threadPattern,
    {
      onRequest,
      preHandler: app.rateLimits.sendStaffMessage,
      config: { audit: { none: 'the service writes the reply into the member’s chain' } },
      schema: {
        tags,
        security,
        summary: 'Reply to the member, who is told there is a new message (never what it says)',
        params: messageThreadParams,
        body: newStaffMessage,
        response: { 201: createdMessage, ...problems(400, 401, 403, 404, 422, 429) },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await messages.staffReply(request.staff, request.params.id, request.body)),
  );

  app.patch(
    threadPattern,
    {
      onRequest,
      config: { audit: { none: 'a thread’s status and assignee, no health content' } },
      schema: {
        tags,
        security,
        summary: 'Close or reopen a conversation, or give it to a staff member (null: nobody)',
        params: messageThreadParams,
        body: messageThreadChange,
        response: { 200: clinicMessageThreadSummary, ...problems(400, 401, 403, 404, 422) },
      },
    },
    (request) => messages.change(request.params.id, request.body),
  );

  return Promise.resolve();
};
