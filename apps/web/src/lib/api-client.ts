import { accountPaths, problem, problemTypes, tokenPair, type TokenPair } from '@dental/contracts';
import type { z } from 'zod';
import { sessionStore } from './session-store';
import { noteSessionEnd } from './sign-out-notice';
import { withViewedMember } from './viewed-record';

/** An error answer of the API (RFC 9457), or a failure to reach it (status 0). */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    /** The sentence to show the user (the problem's `detail`). */
    readonly detail: string,
    /** Field name to its messages, for validation failures. */
    readonly fieldErrors: Readonly<Record<string, string[]>> = {},
    /** The problem's `type`, for the few failures the app acts on (`problemTypes`). */
    readonly type = 'about:blank',
  ) {
    super(detail);
  }
}

export const unreachableMessage =
  'We could not reach the server. Check your connection and try again.';
export const unexpectedMessage = 'Something went wrong on our side. Please try again later.';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: Method;
  body?: unknown;
  /** Public calls (login, register, password reset, config) carry no bearer token. */
  auth?: boolean;
  /** More request headers (a share link's passcode). */
  headers?: Readonly<Record<string, string>>;
}

async function toApiError(response: Response): Promise<ApiError> {
  const body: unknown = await response.json().catch(() => null);
  const parsed = problem.safeParse(body);
  if (parsed.success) {
    return new ApiError(response.status, parsed.data.detail, parsed.data.errors, parsed.data.type);
  }
  return new ApiError(response.status, unexpectedMessage);
}

async function send(path: string, options: RequestOptions, access: string | null) {
  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (access !== null) headers.Authorization = `Bearer ${access}`;
  try {
    // While another's record is viewed, health-data calls name it (docs/product/proxy-access.md).
    return await fetch(withViewedMember(path), {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, unreachableMessage);
  }
}

// One rotation at a time: the server rotates refresh tokens and treats a second use of the same
// token as theft, so concurrent 401s share a single refresh call, and a hand-off to a new tab
// waits for it (and they for the hand-off).
let refreshing: Promise<TokenPair | null> | null = null;

/** Uses up this tab's refresh token at `path` and keeps the pair the answer brings for it. */
async function rotate<Answer extends TokenPair>(
  path: string,
  schema: z.ZodType<Answer>,
): Promise<Answer | null> {
  const { refresh } = sessionStore.getSnapshot();
  if (refresh === null) return null;
  const response = await send(path, { method: 'POST', body: { refresh } }, null);
  if (!response.ok) {
    noteSessionEnd(await toApiError(response));
    return null;
  }
  const parsed = schema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) return null;
  sessionStore.save({ access: parsed.data.access, refresh: parsed.data.refresh });
  return parsed.data;
}

/** Marks `rotation` as the one in flight until it settles. */
function inFlight(rotation: Promise<TokenPair | null>): Promise<TokenPair | null> {
  refreshing = rotation
    .catch(() => null)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** Renews the tokens once for every caller waiting on a 401. */
function sharedRefresh(): Promise<TokenPair | null> {
  return refreshing ?? inFlight(rotate(accountPaths.refresh, tokenPair));
}

/**
 * Uses up this tab's refresh token at `path` once no other rotation is in flight, and keeps the
 * pair the answer brings for this tab; the hand-off to a new tab (tab-session.ts) rotates so.
 */
export async function rotateAfterOthers<Answer extends TokenPair>(
  path: string,
  schema: z.ZodType<Answer>,
): Promise<Answer | null> {
  while (refreshing !== null) await refreshing;
  const answer = rotate(path, schema).catch(() => null);
  void inFlight(answer);
  return answer;
}

/**
 * The session rules of every authenticated request, JSON (`fetch`) or upload (XMLHttpRequest):
 * `send` sends the request once with the given access token. A 401 is retried once, with the
 * token another call has just obtained or after the one shared refresh; a 401 that remains, or a
 * 403, clears the session, which sends the browser to /login through RequireAuth
 * (docs/product/general.md#calls-and-errors, docs/decisions/web-session.md). A session that
 * timed out leaves the server's explanation for the Login screen; a 403 that asks for the
 * password again (docs/decisions/session-timeouts.md) or says the plan's allowance is spent
 * (docs/decisions/reports.md) keeps the session. Answers a 2xx;
 * anything else is thrown as `toError` makes it.
 */
export async function withSession<Answer extends { status: number }>(
  send: (access: string | null) => Promise<Answer>,
  toError: (answer: Answer) => ApiError | Promise<ApiError>,
): Promise<Answer> {
  const used = sessionStore.getSnapshot().access;
  let answer = await send(used);
  if (answer.status === 401) {
    // Another call may have renewed the tokens while this one was in flight.
    const current = sessionStore.getSnapshot().access;
    const access = current !== null && current !== used ? current : (await sharedRefresh())?.access;
    if (access !== undefined) answer = await send(access);
  }
  if (answer.status >= 200 && answer.status < 300) return answer;
  const error = await toError(answer);
  // A request for the password again, or a plan's spent allowance, is the caller's to answer;
  // the session goes on.
  if (
    error.type === problemTypes.reauthenticationRequired ||
    error.type === problemTypes.planLimitReached
  ) {
    throw error;
  }
  if (answer.status === 401 || answer.status === 403) {
    noteSessionEnd(error);
    sessionStore.clear();
  }
  throw error;
}

/** Sends one JSON call; public calls carry no token and leave the session alone. */
async function call(path: string, options: RequestOptions): Promise<Response> {
  if (options.auth ?? true) {
    return withSession((access) => send(path, options, access), toApiError);
  }
  const response = await send(path, options, null);
  if (!response.ok) throw await toApiError(response);
  return response;
}

/** A call whose JSON answer is checked against its contract schema, with the answer's headers
 *  (a list page's `Link`). */
export async function apiAnswer<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  options: RequestOptions = {},
): Promise<{ body: z.output<Schema>; headers: Headers }> {
  const response = await call(path, options);
  const parsed = schema.safeParse(await response.json().catch(() => null));
  if (!parsed.success) throw new ApiError(response.status, unexpectedMessage);
  return { body: parsed.data, headers: response.headers };
}

/** A call whose JSON answer is checked against its contract schema. */
export async function apiRequest<Schema extends z.ZodType>(
  path: string,
  schema: Schema,
  options: RequestOptions = {},
): Promise<z.output<Schema>> {
  return (await apiAnswer(path, schema, options)).body;
}

/** A call whose answer carries no data the app uses (204, or a body that is ignored). */
export async function apiSend(path: string, options: RequestOptions = {}): Promise<void> {
  await call(path, options);
}

/** An authenticated call whose answer is text, not JSON (an `.ics` file). */
export async function apiText(path: string): Promise<string> {
  return (await call(path, {})).text();
}

/** The sentence to show for a failed call. */
export function errorMessage(error: unknown): string {
  return error instanceof ApiError ? error.detail : unexpectedMessage;
}
