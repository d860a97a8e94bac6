import { beforeEach, describe, expect, it } from 'vitest';
import { account, oralPhoto, oralPhotoPaths, type OralPhoto } from '@dental/contracts';
import { deferred, json, problemResponse, stubFetch, testAccount } from '../test/fetch-stub';
import { stubXhr } from '../test/xhr-stub';
import { apiRequest } from './api-client';
import { sessionStore } from './session-store';
import { uploadRequest } from './upload-request';

const accountPath = '/api/account/';
const refreshPath = '/api/account/token/refresh/';
const uploadKey = `POST ${oralPhotoPaths.list}`;

const saved: OralPhoto = {
  id: '1f0c6a2e-7b41-4c1e-9a52-3b7d2e9f1a01',
  shoot_date: '2026-01-05',
  date: '2026-01-05T10:00:00.000Z',
  photo_type: 'X-ray',
  image_link: '/api/files/x-ray.png?sig=1',
  thumbnail_link: '/api/files/x-ray.webp?sig=1',
  original_link: null,
  capture_set_id: null,
  capture_view: null,
  note: '',
  teeth: [],
};
const body = { photo_type: 'X-ray', image_url: 'data:image/png;base64,iVBORw0KGgo=' };

function upload(onProgress?: (sent: number) => void) {
  return uploadRequest(oralPhotoPaths.list, oralPhoto, { method: 'POST', body, onProgress });
}

/** Answers with the photo only when the request carries the renewed token. */
const acceptsRenewedToken = (request: { headers: Headers }) =>
  request.headers.get('Authorization') === 'Bearer access-2'
    ? json(saved, 201)
    : problemResponse(401, 'Your session has expired.');

// Uploads go through XMLHttpRequest for their progress; they follow the same session rules as
// JSON calls, through the one `withSession` of lib/api-client.
describe('upload request', () => {
  beforeEach(() => {
    stubXhr();
  });

  it('sends the body as JSON with the bearer token, reports progress and checks the answer', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    const api = stubFetch({ [uploadKey]: () => json(saved, 201) });
    const progress: number[] = [];

    await expect(upload((sent) => progress.push(sent))).resolves.toEqual(saved);
    expect(api.to(uploadKey)[0]?.headers.get('Authorization')).toBe('Bearer access-1');
    expect(api.to(uploadKey)[0]?.body).toEqual(body);
    expect(progress).toEqual([1]);
  });

  it('refreshes an expired access token once and retries the upload with the new one', async () => {
    sessionStore.save({ access: 'expired', refresh: 'refresh-1' });
    const api = stubFetch({
      [uploadKey]: acceptsRenewedToken,
      [`POST ${refreshPath}`]: () => json({ access: 'access-2', refresh: 'refresh-2' }),
    });

    await expect(upload()).resolves.toEqual(saved);
    expect(api.to(uploadKey)).toHaveLength(2);
    expect(api.to(`POST ${refreshPath}`).map((r) => r.body)).toEqual([{ refresh: 'refresh-1' }]);
    expect(sessionStore.getSnapshot()).toEqual({ access: 'access-2', refresh: 'refresh-2' });
  });

  it('shares one refresh with a JSON call that expires at the same time', async () => {
    sessionStore.save({ access: 'expired', refresh: 'refresh-1' });
    const refreshed = deferred<Response>();
    const api = stubFetch({
      [uploadKey]: acceptsRenewedToken,
      [`GET ${accountPath}`]: (request) =>
        request.headers.get('Authorization') === 'Bearer access-2'
          ? json(testAccount)
          : problemResponse(401, 'Your session has expired.'),
      [`POST ${refreshPath}`]: () => refreshed.promise,
    });

    const both = Promise.all([upload(), apiRequest(accountPath, account)]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    refreshed.resolve(json({ access: 'access-2', refresh: 'refresh-2' }));

    await expect(both).resolves.toEqual([saved, testAccount]);
    expect(api.to(`POST ${refreshPath}`)).toHaveLength(1);
  });

  it('ends the session when the retried upload is still refused', async () => {
    sessionStore.save({ access: 'expired', refresh: 'refresh-1' });
    const api = stubFetch({
      [uploadKey]: () => problemResponse(401, 'Your session has expired.'),
      [`POST ${refreshPath}`]: () => json({ access: 'access-2', refresh: 'refresh-2' }),
    });

    await expect(upload()).rejects.toMatchObject({
      status: 401,
      detail: 'Your session has expired.',
    });
    expect(api.to(uploadKey)).toHaveLength(2);
    expect(sessionStore.getSnapshot()).toEqual({ access: null, refresh: null });
  });

  it('ends the session at once on 403, without a refresh', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    const api = stubFetch({
      [uploadKey]: () => problemResponse(403, 'This account is deactivated.'),
    });

    await expect(upload()).rejects.toMatchObject({ status: 403 });
    expect(api.to(`POST ${refreshPath}`)).toHaveLength(0);
    expect(sessionStore.getSnapshot().access).toBeNull();
  });

  it('keeps the session on any other refusal and shows its detail', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    stubFetch({ [uploadKey]: () => problemResponse(413, 'The file is larger than 5 MB.') });

    await expect(upload()).rejects.toMatchObject({
      status: 413,
      detail: 'The file is larger than 5 MB.',
    });
    expect(sessionStore.getSnapshot().access).toBe('access-1');
  });
});
