import { describe, expect, it } from 'vitest';
import { Conflict, RateLimited, Unauthorized } from '../domain-errors';
import { internalErrorMessage, toProblem } from './errors';

describe('toProblem', () => {
  it('turns a domain error into its status with its detail and field errors', () => {
    expect(toProblem(new Conflict('Taken.', { email: ['Taken.'] }))).toEqual({
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      detail: 'Taken.',
      errors: { email: ['Taken.'] },
    });
    expect(toProblem(new Unauthorized('Log in.'))).toEqual({
      type: 'about:blank',
      title: 'Unauthorized',
      status: 401,
      detail: 'Log in.',
    });
  });

  it.each([
    [59, 'Too many attempts. Please try again in 1 minute.'],
    [60, 'Too many attempts. Please try again in 1 minute.'],
    [61, 'Too many attempts. Please try again in 2 minutes.'],
    [900, 'Too many attempts. Please try again in 15 minutes.'],
  ])('words a %i-second rate limit wait', (seconds, detail) => {
    expect(toProblem(new RateLimited(seconds))).toMatchObject({ status: 429, detail });
  });

  it('answers anything unexpected with a generic 500 that reveals nothing', () => {
    const problem = toProblem(new TypeError("Cannot read properties of undefined (reading 'id')"));
    expect(problem).toEqual({
      type: 'about:blank',
      title: 'Internal Server Error',
      status: 500,
      detail: internalErrorMessage,
    });
    expect(toProblem('a thrown string')).toMatchObject({ status: 500 });
  });

  it('keeps the framework’s client errors as client errors', () => {
    const tooLarge = Object.assign(new Error('Request body is too large'), {
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
      statusCode: 413,
    });
    expect(toProblem(tooLarge)).toMatchObject({
      status: 413,
      detail: 'The request body is too large.',
    });
  });
});
