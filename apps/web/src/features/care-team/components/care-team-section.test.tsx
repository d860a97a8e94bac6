import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { OralPhoto } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { json, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const nothing = { scope: null, photos: [], records: [], granted_at: null };
const xray: OralPhoto = {
  id: '11111111-1111-4111-8111-111111111111',
  shoot_date: '2026-11-25',
  date: '2026-11-25T10:00:00.000Z',
  photo_type: 'X-ray',
  image_link: '/api/files/x.png?sig=1',
  thumbnail_link: '/api/files/x.webp?sig=1',
  original_link: null,
  capture_set_id: null,
  capture_view: null,
  note: '',
  teeth: [],
};

async function openSection(handlers: Parameters<typeof stubFetch>[0]) {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  const api = stubFetch({ 'GET /api/account/': () => json(testAccount), ...handlers });
  renderRoute('/account');
  const region = await screen.findByRole('region', { name: 'Share with my dental practice' });
  return { api, section: within(region) };
}

describe('Share with my dental practice', () => {
  it('shares chosen X-rays, says what is shared, and stops sharing after asking', async () => {
    const user = userEvent.setup();
    const chosen = {
      scope: 'chosen',
      photos: [xray.id],
      records: [],
      granted_at: '2026-11-28T10:00:00.000Z',
    };
    const { api, section } = await openSection({
      'GET /api/care-team/access/': () => json(nothing),
      'GET /api/oral-photo/': () => json([xray]),
      'GET /api/medical-record/': () => json([]),
      'POST /api/care-team/access/': () => json(chosen),
      'DELETE /api/care-team/access/': () => new Response(null, { status: 204 }),
    });
    expect(
      await section.findByText(
        'Your dental practice sees only your answers for the consultations you book.',
      ),
    ).toBeInTheDocument();
    await user.click(section.getByRole('button', { name: 'Choose what to share' }));
    await user.click(section.getByRole('radio', { name: 'Only the ones I choose' }));
    await user.click(await section.findByRole('checkbox', { name: /X-ray of 2026-11-25/ }));
    await user.click(section.getByRole('button', { name: 'Share' }));
    await waitFor(() => {
      expect(api.to('POST /api/care-team/access/')[0]?.body).toEqual({
        photos: [xray.id],
        records: [],
      });
    });
    expect(
      await section.findByText(
        'Your dental practice sees 1 chosen photo or X-ray and 0 chosen records.',
      ),
    ).toBeInTheDocument();

    await user.click(section.getByRole('button', { name: 'Stop sharing' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Stop sharing with your dental practice?',
    });
    expect(api.to('DELETE /api/care-team/access/')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Stop sharing' }));
    await waitFor(() => {
      expect(api.to('DELETE /api/care-team/access/')).toHaveLength(1);
    });
  });
});
