import { describe, expect, it } from 'vitest';
import { account, configPath, problemTypes, publicConfig, tokenHandoff } from '@dental/contracts';
import {
  deferred,
  json,
  problemResponse,
  stubFetch,
  testAccount,
  typedProblem,
} from '../test/fetch-stub';
import {
  ApiError,
  apiRequest,
  apiSend,
  rotateAfterOthers,
  unexpectedMessage,
  unreachableMessage,
} from './api-client';
import { sessionStore } from './session-store';

const accountPath = '/api/account/';
const refreshPath = '/api/account/token/refresh/';
const handoffPath = '/api/account/token/handoff/';

describe('api client', () => {
  it('sends the bearer token and checks the answer against its contract', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    const api = stubFetch({ [`GET ${accountPath}`]: () => json(testAccount) });

    await expect(apiRequest(accountPath, account)).resolves.toEqual(testAccount);
    expect(api.requests[0]?.headers.get('Authorization')).toBe('Bearer access-1');
    expect(api.requests[0]?.headers.get('Accept')).toBe('application/json');
  });

  it('sends no bearer token on public calls', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    const api = stubFetch({});
    await apiRequest(configPath, publicConfig, { auth: false });
    expect(api.requests[0]?.headers.has('Authorization')).toBe(false);
  });

  it('turns a problem answer into an ApiError with its detail and field errors', async () => {
    stubFetch({
      'POST /api/account/register/': () =>
        problemResponse(400, 'Some fields are not valid.', { email: ['Enter a valid e-mail.'] }),
    });
    const error: unknown = await apiSend('/api/account/register/', {
      method: 'POST',
      body: {},
      auth: false,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      detail: 'Some fields are not valid.',
      fieldErrors: { email: ['Enter a valid e-mail.'] },
    });
  });

  it('reports an answer that is not a problem, or no answer at all, in plain words', async () => {
    stubFetch({
      [`GET ${configPath}`]: () => new Response('<html>Bad gateway</html>', { status: 502 }),
    });
    await expect(apiRequest(configPath, publicConfig, { auth: false })).rejects.toMatchObject({
      status: 502,
      detail: unexpectedMessage,
    });

    stubFetch({
      [`GET ${configPath}`]: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await expect(apiRequest(configPath, publicConfig, { auth: false })).rejects.toMatchObject({
      status: 0,
      detail: unreachableMessage,
    });
  });

  it('refuses an answer that does not match the contract', async () => {
    stubFetch({ [`GET ${configPath}`]: () => json({ company_name: 42 }) });
    await expect(apiRequest(configPath, publicConfig, { auth: false })).rejects.toMatchObject({
      detail: unexpectedMessage,
    });
  });

  it('refreshes an expired access token once and retries with the new one', async () => {
    sessionStore.save({ access: 'expired', refresh: 'refresh-1' });
    const api = stubFetch({
      [`GET ${accountPath}`]: (request) =>
        request.headers.get('Authorization') === 'Bearer access-2'
          ? json(testAccount)
          : problemResponse(401, 'Your session has expired.'),
      [`POST ${refreshPath}`]: () => json({ access: 'access-2', refresh: 'refresh-2' }),
    });

    await expect(apiRequest(accountPath, account)).resolves.toEqual(testAccount);
    expect(api.to(`POST ${refreshPath}`).map((r) => r.body)).toEqual([{ refresh: 'refresh-1' }]);
    expect(api.to(`POST ${refreshPath}`)[0]?.headers.has('Authorization')).toBe(false);
    expect(sessionStore.getSnapshot()).toEqual({ access: 'access-2', refresh: 'refresh-2' });
    expect(sessionStorage.getItem('dental.refresh')).toBe('refresh-2');
  });

  it('shares one refresh between calls that expire together (refresh tokens are single use)', async () => {
    sessionStore.save({ access: 'expired', refresh: 'refresh-1' });
    const refreshed = deferred<Response>();
    const api = stubFetch({
      [`GET ${accountPath}`]: (request) =>
        request.headers.get('Authorization') === 'Bearer access-2'
          ? json(testAccount)
          : problemResponse(401, 'Your session has expired.'),
      [`POST ${refreshPath}`]: () => refreshed.promise,
    });

    const both = Promise.all([apiRequest(accountPath, account), apiRequest(accountPath, account)]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    refreshed.resolve(json({ access: 'access-2', refresh: 'refresh-2' }));

    await expect(both).resolves.toEqual([testAccount, testAccount]);
    expect(api.to(`POST ${refreshPath}`)).toHaveLength(1);
  });

  it('hands off after a refresh in flight, and a 401 meanwhile waits for the hand-off', async () => {
    sessionStore.save({ access: 'expired', refresh: 'refresh-1' });
    const refreshed = deferred<Response>();
    const handedOff = deferred<Response>();
    const api = stubFetch({
      [`GET ${accountPath}`]: (request) =>
        ['Bearer access-2', 'Bearer access-3'].includes(request.headers.get('Authorization') ?? '')
          ? json(testAccount)
          : problemResponse(401, 'Your session has expired.'),
      [`POST ${refreshPath}`]: () => refreshed.promise,
      [`POST ${handoffPath}`]: () => handedOff.promise,
    });

    const first = apiRequest(accountPath, account);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const handoff = rotateAfterOthers(handoffPath, tokenHandoff);
    refreshed.resolve(json({ access: 'access-2', refresh: 'refresh-2' }));
    await expect(first).resolves.toEqual(testAccount);
    sessionStore.save({ access: 'expired-again', refresh: 'refresh-2' });
    const second = apiRequest(accountPath, account);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const newTab = { access: 'tab-access', refresh: 'tab-refresh' };
    handedOff.resolve(json({ access: 'access-3', refresh: 'refresh-3', handoff: newTab }));

    expect((await handoff)?.handoff).toEqual(newTab);
    await expect(second).resolves.toEqual(testAccount);
    // Each refresh token went to the server once: the hand-off used the refreshed one.
    expect(api.to(`POST ${handoffPath}`).map((request) => request.body)).toEqual([
      { refresh: 'refresh-2' },
    ]);
    expect(api.to(`POST ${refreshPath}`)).toHaveLength(1);
    expect(sessionStore.getSnapshot()).toEqual({ access: 'access-3', refresh: 'refresh-3' });
  });

  it('ends the session when the refresh is refused', async () => {
    sessionStore.save({ access: 'expired', refresh: 'revoked' });
    const api = stubFetch({
      [`GET ${accountPath}`]: () => problemResponse(401, 'Your session has expired.'),
      [`POST ${refreshPath}`]: () => problemResponse(401, 'Please log in again.'),
    });

    await expect(apiRequest(accountPath, account)).rejects.toMatchObject({ status: 401 });
    expect(api.to(`GET ${accountPath}`)).toHaveLength(1);
    expect(sessionStore.getSnapshot()).toEqual({ access: null, refresh: null });
    expect(sessionStorage.getItem('dental.access')).toBeNull();
  });

  it('ends the session when the retried call is still refused', async () => {
    sessionStore.save({ access: 'expired', refresh: 'refresh-1' });
    const api = stubFetch({
      [`GET ${accountPath}`]: () => problemResponse(401, 'Your session has expired.'),
      [`POST ${refreshPath}`]: () => json({ access: 'access-2', refresh: 'refresh-2' }),
    });

    await expect(apiRequest(accountPath, account)).rejects.toMatchObject({ status: 401 });
    expect(api.to(`GET ${accountPath}`)).toHaveLength(2);
    expect(api.to(`POST ${refreshPath}`)).toHaveLength(1);
    expect(sessionStore.getSnapshot().access).toBeNull();
  });

  it('ends the session at once on 403, without a refresh', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    const api = stubFetch({
      [`GET ${accountPath}`]: () => problemResponse(403, 'This account is deactivated.'),
    });

    await expect(apiRequest(accountPath, account)).rejects.toMatchObject({
      status: 403,
      detail: 'This account is deactivated.',
    });
    expect(api.to(`POST ${refreshPath}`)).toHaveLength(0);
    expect(sessionStore.getSnapshot().access).toBeNull();
  });

  it('keeps the session on a 403 that says the plan’s allowance is spent', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    stubFetch({
      [`GET ${accountPath}`]: () =>
        typedProblem(403, problemTypes.planLimitReached, 'You have used all 1 reports.'),
    });
    await expect(apiRequest(accountPath, account)).rejects.toMatchObject({
      status: 403,
      detail: 'You have used all 1 reports.',
    });
    expect(sessionStore.getSnapshot().access).toBe('access-1');
  });

  it('does not touch the session when a public call is refused', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    stubFetch({ 'POST /api/account/login/': () => problemResponse(401, 'Wrong password.') });
    await expect(
      apiSend('/api/account/login/', { method: 'POST', body: {}, auth: false }),
    ).rejects.toMatchObject({ status: 401, detail: 'Wrong password.' });
    expect(sessionStore.getSnapshot().access).toBe('access-1');
  });
});
