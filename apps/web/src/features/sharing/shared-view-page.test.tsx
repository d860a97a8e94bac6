import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  problemTypes,
  shareLinkNotFoundMessage,
  sharePasscodeRequiredMessage,
  sharePasscodeWrongMessage,
  type SharedItems,
} from '@dental/contracts';
import { json, stubFetch, type RecordedRequest } from '../../test/fetch-stub';
import { renderRoute } from '../../test/render-route';

const token = 'T'.repeat(43);
const path = `GET /api/shared/${token}/`;

const shared: SharedItems = {
  label: 'For Dr. Patel',
  expires_at: '2026-12-01T10:00:00.000Z',
  dental_ai: [],
  reports: [],
  photos: [
    {
      id: '6c0d2c3e-1d7b-4a63-9d2f-0d7f0e8b2a01',
      shoot_date: '2026-11-20',
      date: '2026-11-20T09:00:00.000Z',
      photo_type: 'X-ray',
      image_link: '/api/files/x.png?sig=a',
      thumbnail_link: '/api/files/x.webp?sig=b',
      original_link: null,
      capture_set_id: null,
      capture_view: null,
      note: 'Lower left molar',
      teeth: [],
    },
  ],
  records: [],
};

function problem(status: number, detail: string, type = 'about:blank') {
  return new Response(JSON.stringify({ type, title: 'Error', status, detail }), {
    status,
    headers: { 'Content-Type': 'application/problem+json' },
  });
}

/** Answers like the API: the passcode 'molar-42' opens the link. */
function passcodeApi(request: RecordedRequest) {
  const passcode = request.headers.get('x-share-passcode');
  if (passcode === null) {
    return problem(401, sharePasscodeRequiredMessage, problemTypes.sharePasscode);
  }
  if (passcode !== 'molar-42') {
    return problem(401, sharePasscodeWrongMessage, problemTypes.sharePasscode);
  }
  return json(shared);
}

describe('the shared page /s/{token}', () => {
  it('asks for the passcode, says when it is wrong, then shows the X-ray', async () => {
    const { requests } = stubFetch({ [path]: passcodeApi });
    const { user } = renderRoute(`/s/${token}`);
    expect(await screen.findByRole('heading', { name: 'Enter the passcode' })).toBeVisible();
    // The first answer only says a passcode is needed: no error under the field yet.
    expect(screen.queryByText(sharePasscodeRequiredMessage)).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Passcode'), 'molar-41');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByText(sharePasscodeWrongMessage)).toBeVisible();

    await user.clear(screen.getByLabelText('Passcode'));
    await user.type(screen.getByLabelText('Passcode'), 'molar-42');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('heading', { name: 'For Dr. Patel', level: 1 })).toBeVisible();
    expect(screen.getByText('X-ray of 2026-11-20')).toBeVisible();
    expect(screen.getByText('Lower left molar')).toBeVisible();
    expect(
      screen.getByRole('button', { name: 'View X-ray of 2026-11-20 full screen' }),
    ).toBeVisible();
    // A public call: never a bearer token.
    expect(requests.every((request) => request.headers.get('authorization') === null)).toBe(true);
    expect(document.querySelector('meta[name="robots"]')?.getAttribute('content')).toBe(
      'noindex, nofollow',
    );
  });

  it('lists a shared report by its kind and period, with its PDF to download', async () => {
    const download = '/api/shared-files/link/sealed?exp=1&sig=s';
    stubFetch({
      [path]: () =>
        json({
          ...shared,
          photos: [],
          reports: [
            {
              id: '7d1e3d4f-2e8c-4b74-8e3a-1e8f1f9c3b02',
              kind: 'treatment_history',
              from: '2025-12-01',
              to: '2026-11-29',
              download_url: download,
            },
          ],
        }),
    });
    renderRoute(`/s/${token}`);
    const reports = await screen.findByRole('region', { name: 'Reports' });
    expect(
      within(reports).getByRole('heading', { name: 'Treatment history report' }),
    ).toBeVisible();
    expect(within(reports).getByText('2025-12-01 to 2026-11-29')).toBeVisible();
    expect(
      within(reports).getByRole('link', {
        name: 'Download the treatment history report, 2025-12-01 to 2026-11-29 (PDF)',
      }),
    ).toHaveAttribute('href', download);
    expect(screen.queryByText('Nothing is shared here any more.')).not.toBeInTheDocument();
  });

  it('says plainly that a revoked, expired or unknown link no longer works', async () => {
    stubFetch({ [path]: () => problem(404, shareLinkNotFoundMessage) });
    renderRoute(`/s/${token}`);
    expect(await screen.findByRole('heading', { name: 'This link no longer works' })).toBeVisible();
    expect(screen.queryByText(/X-ray of/)).not.toBeInTheDocument();
  });
});
