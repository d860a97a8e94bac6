import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { problemContentType, type Problem } from '@dental/contracts';
import {
  connectionLossOf,
  databaseRetryAfterSeconds,
  type DatabaseOutage,
} from '../db/database-outage';
import { DomainError, type FieldErrors } from '../domain-errors';

export const notFoundMessage = 'Nothing was found at this address.';
export const internalErrorMessage = 'Something went wrong on our side. Please try again later.';
export const databaseUnavailableMessage =
  'The service is briefly unavailable. Please try again in a few seconds.';

/** Friendly sentences for the framework's own client errors, by Fastify error code. */
const frameworkDetails: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty. Send a JSON object.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'The request body must be JSON (Content-Type: application/json).',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length.',
  FST_ERR_BAD_URL: 'The address of this request is not valid.',
};

function problemOf(
  status: number,
  detail: string,
  errors?: FieldErrors,
  type = 'about:blank',
): Problem {
  return {
    type,
    title: STATUS_CODES[status] ?? 'Error',
    status,
    detail,
    ...(errors === undefined ? {} : { errors }),
  };
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/**
 * The contracts' messages are already sentences for the UI; zod's built-in ones are for
 * developers, so they are reworded or at least named after their field.
 */
function fieldMessages(field: string, message: string): { inField: string; inDetail: string } {
  if (/[.!?]$/.test(message)) return { inField: message, inDetail: message };
  if (message.endsWith('received undefined')) {
    return { inField: 'This field is required.', inDetail: `${field} is required.` };
  }
  return { inField: sentence(message), inDetail: sentence(`${field}: ${message}`) };
}

function validationProblem(
  validation: { instancePath: string; message?: string }[],
  context: string | undefined,
): Problem {
  const errors: FieldErrors = {};
  const details = new Set<string>();
  for (const issue of validation) {
    const field = issue.instancePath.split('/').filter(Boolean).join('.');
    if (field === '') {
      details.add(`The request ${context ?? 'body'} must be a JSON object.`);
      continue;
    }
    const { inField, inDetail } = fieldMessages(field, issue.message ?? 'Invalid value');
    const messages = (errors[field] ??= []);
    if (!messages.includes(inField)) messages.push(inField);
    details.add(inDetail);
  }
  const problem = problemOf(400, [...details].join(' '));
  return Object.keys(errors).length === 0 ? problem : { ...problem, errors };
}

/** Too many attempts (429), busy decoders and a database that is away (503) say when to come back. */
function retryAfterOf(error: unknown): unknown {
  if (error instanceof DomainError) {
    return 'retryAfterSeconds' in error ? error.retryAfterSeconds : undefined;
  }
  return connectionLossOf(error) === undefined ? undefined : databaseRetryAfterSeconds;
}

const isFastifyError = (error: unknown): error is FastifyError =>
  error instanceof Error && 'code' in error && typeof error.code === 'string';

/** The RFC 9457 problem for any error; anything unexpected becomes a generic 500. */
export function toProblem(error: unknown): Problem {
  if (error instanceof DomainError) {
    return problemOf(error.status, error.detail, error.errors, error.type);
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    return validationProblem(error.validation, error.validationContext);
  }
  if (error instanceof SyntaxError && 'statusCode' in error && error.statusCode === 400) {
    return problemOf(400, 'The request body is not valid JSON.');
  }
  if (isFastifyError(error)) {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return problemOf(status, frameworkDetails[error.code] ?? sentence(error.message));
    }
  }
  // A database restart or fail-over: nothing was wrong with the request, and it may be repeated
  // (docs/decisions/database-restarts.md).
  if (connectionLossOf(error) !== undefined) return problemOf(503, databaseUnavailableMessage);
  return problemOf(500, internalErrorMessage);
}

export function sendProblem(reply: FastifyReply, problem: Problem): FastifyReply {
  return reply.code(problem.status).type(problemContentType).send(problem);
}

/** Router-level failures (a malformed URL) that happen before any route handler runs. */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  request.log.info({ code: error.code }, 'rejected by the router');
  void sendProblem(reply, toProblem(error));
}

export interface ErrorsOptions {
  /** Told of each request that failed for a lost database connection; it logs the outage once. */
  databaseOutage?: DatabaseOutage;
}

/** One error handler and one not-found handler: every error answer is problem+json. */
export const errorsPlugin = fp(
  (app: FastifyInstance, options: ErrorsOptions) => {
    app.setErrorHandler((error, request, reply) => {
      const problem = toProblem(error);
      const loss = connectionLossOf(error);
      if (loss !== undefined) options.databaseOutage?.lost(loss, Date.now() - reply.elapsedTime);
      if (problem.status >= 500 && loss === undefined) {
        request.log.error({ err: error }, 'request failed');
      } else {
        request.log.info({ status: problem.status }, problem.title);
      }
      const retryAfter = retryAfterOf(error);
      if (typeof retryAfter === 'number') void reply.header('retry-after', String(retryAfter));
      return sendProblem(reply, problem);
    });

    app.setNotFoundHandler((_request, reply) =>
      sendProblem(reply, problemOf(404, notFoundMessage)),
    );
    return Promise.resolve();
  },
  { name: 'errors' },
);
