import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createdMessage,
  messagePaths,
  messageThread,
  messageThreadList,
  messageThreadParams,
  messageThreadQuery,
  newMemberMessage,
  newMessageThread,
  unreadMessages,
} from '@dental/contracts';
import { security } from '#api/lib/openapi-security';
import { nextPagePath } from '#api/lib/pagination';
import { problems } from '#api/lib/problem-responses';
import type { MessageService } from './messages.service';

export interface MessageRoutesOptions {
  messages: MessageService;
}

const tags = ['messages'];
const threadPattern = `${messagePaths.threads}:id/`;

/**
 * A member's conversations with the practice (docs/decisions/care-messages.md). Not delegable:
 * a person who views the member's record gets 404 for `?member=` here, as for every route the
 * delegation plugin does not list.
 */
export const messageRoutes: FastifyPluginAsyncZod<MessageRoutesOptions> = (app, { messages }) => {
  const onRequest = app.authenticate;

  app.post(
    messagePaths.threads,
    {
      onRequest,
      preHandler: app.rateLimits.sendMessage,
      config: {
        audit: { action: 'create', resourceType: 'message_thread', resourceId: 'answer' },
      },
      schema: {
        tags,
        security,
        summary: 'Write to the practice: a subject, a message and the member’s own items attached',
        body: newMessageThread,
        response: { 201: createdMessage, ...problems(400, 401, 404, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await messages.start(request.user.id, request.body)),
  );

  app.get(
    messagePaths.threads,
    {
      onRequest,
      config: { audit: { action: 'read', resourceType: 'message_thread_list' } },
      schema: {
        tags,
        security,
        summary: 'The member’s conversations, newest message first, each with its unread count',
        querystring: messageThreadQuery,
        response: { 200: messageThreadList, ...problems(400, 401) },
      },
    },
    async (request) => {
      const page = await messages.threads(request.user.id, request.query);
      return {
        results: page.items,
        next: page.more ? nextPagePath(request, request.query) : null,
      };
    },
  );

  app.get(
    messagePaths.unread,
    {
      onRequest,
      config: { audit: { none: 'a count of unread messages, no health content' } },
      schema: {
        tags,
        security,
        summary: 'How many of the practice’s messages the member has not read (the Home card)',
        response: { 200: unreadMessages, ...problems(401) },
      },
    },
    (request) => messages.unread(request.user.id),
  );

  app.get(
    threadPattern,
    {
      onRequest,
      config: {
        audit: { action: 'read', resourceType: 'message_thread', resourceId: { param: 'id' } },
      },
      schema: {
        tags,
        security,
        summary: 'A conversation’s messages, oldest first; the practice’s become read',
        params: messageThreadParams,
        response: { 200: messageThread, ...problems(401, 404) },
      },
    },
    (request) => messages.thread(request.user.id, request.params.id),
  );

  app.post(
    threadPattern,
    {
      onRequest,
      preHandler: app.rateLimits.sendMessage,
      config: { audit: { action: 'create', resourceType: 'message', resourceId: 'answer' } },
      schema: {
        tags,
        security,
        summary: 'Reply in one of the member’s conversations; a closed one opens again',
        params: messageThreadParams,
        body: newMemberMessage,
        response: { 201: createdMessage, ...problems(400, 401, 404, 422, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await messages.reply(request.user.id, request.params.id, request.body)),
  );

  return Promise.resolve();
};
