import { vi } from 'vitest';
import type { Account, PublicConfig } from '@dental/contracts';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
}

/** Answers one request; may return a promise to hold the answer back. */
export type Handler = (request: RecordedRequest) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export function problemResponse(
  status: number,
  detail: string,
  errors?: Record<string, string[]>,
  type = 'about:blank',
): Response {
  return new Response(JSON.stringify({ type, title: 'Error', status, detail, errors }), {
    status,
    headers: { 'Content-Type': 'application/problem+json' },
  });
}

/** A problem answer with a `type` the app acts on (`problemTypes`). */
export function typedProblem(status: number, type: string, detail: string): Response {
  return problemResponse(status, detail, undefined, type);
}

export const testConfig: PublicConfig = {
  company_name: 'Smile Clinic Inc.',
  customer_service_email: 'care@smile.test',
  social_providers: [],
};

export const testAccount: Account = {
  id: '0b7e7f2c-3a55-4f57-9d3e-2f1f3c9d8a11',
  username: 'Ada',
  email: 'ada@example.com',
  phone: '+12015550123',
  customer_level: 'Silver',
  points: 500,
  points_expired_at: '2026-12-31T23:59:59.999Z',
  google_account: null,
  apple_account: null,
  facebook_account: null,
  storage_used_bytes: 0,
  storage_quota_bytes: 1024 ** 3,
  upload_disclaimer_accepted_at: null,
  role: 'member',
  email_confirmed: true,
  pending_email: null,
  given_name: null,
  family_name: null,
  birth_date: null,
  sex: null,
};

/**
 * Replaces `fetch` (the network boundary) with the given handlers, keyed 'METHOD /path'. The
 * public config is answered unless a handler says otherwise; any other request fails the test.
 */
export function stubFetch(handlers: Record<string, Handler>) {
  const requests: RecordedRequest[] = [];
  const all: Record<string, Handler> = { 'GET /api/config/': () => json(testConfig), ...handlers };
  const fetchStub = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? 'GET';
    const text = typeof init?.body === 'string' ? init.body : undefined;
    const request: RecordedRequest = {
      method,
      path,
      headers: new Headers(init?.headers),
      body: text === undefined ? undefined : (JSON.parse(text) as unknown),
    };
    requests.push(request);
    const handler = all[`${method} ${path}`];
    if (handler === undefined) throw new Error(`Unexpected request ${method} ${path}`);
    return handler(request);
  });
  vi.stubGlobal('fetch', fetchStub);
  /** The requests made so far to one endpoint. */
  const to = (key: string) => requests.filter((r) => `${r.method} ${r.path}` === key);
  return { requests, to };
}

/** A promise to hand a handler, resolved by the test when it wants the answer to arrive. */
export function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}
