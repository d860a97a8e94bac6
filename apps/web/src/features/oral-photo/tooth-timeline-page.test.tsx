import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { oralPhotoPaths, type OralPhoto } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { json, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

function photoOf(id: number, shootDate: string, teeth: number[]): OralPhoto {
  return {
    id: `1f0c6a2e-7b41-4c1e-9a52-3b7d2e9f1a0${String(id)}`,
    shoot_date: shootDate,
    date: '2026-01-05T10:00:00.000Z',
    photo_type: 'X-ray',
    image_link: `/api/files/${String(id)}.png?sig=1`,
    thumbnail_link: `/api/files/${String(id)}.webp?sig=1`,
    note: `Note ${String(id)}`,
    original_link: null,
    capture_set_id: null,
    capture_view: null,
    teeth,
  };
}

const older = photoOf(1, '2024-03-01', [16]);
const newer = photoOf(2, '2026-01-10', [16, 17]);
const other = photoOf(3, '2025-05-05', [26]);

function openPage(path: string, timeline: OralPhoto[] = []) {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  const api = stubFetch({
    'GET /api/account/': () => json(testAccount),
    [`GET ${oralPhotoPaths.list}`]: () => json([newer, other, older]),
    [`GET ${oralPhotoPaths.list}?tooth=16&sequence=ascending`]: () => json(timeline),
  });
  return { api, ...renderRoute(path) };
}

describe('Photos by tooth', () => {
  it('shows the tooth’s images in the order the API gives for sequence=ascending', async () => {
    openPage('/oral-photo/teeth/16', [older, newer]);
    expect(
      await screen.findByRole('heading', { name: 'Tooth 16: upper right first molar', level: 1 }),
    ).toBeInTheDocument();
    const timeline = await screen.findByRole('region', { name: 'Timeline, oldest first' });
    const entries = await within(timeline).findAllByRole('listitem');
    expect(entries.map((entry) => entry.textContent)).toEqual([
      expect.stringContaining('2024-03-01'),
      expect.stringContaining('2026-01-10'),
    ]);
    // The chart marks the tooth shown and counts each tooth's images from the whole list.
    expect(
      await screen.findByRole('link', { name: 'Tooth 16 (upper right first molar), 2 images' }),
    ).toHaveAttribute('aria-current', 'page');
    expect(
      screen.getByRole('link', { name: 'Tooth 26 (upper left first molar), 1 image' }),
    ).not.toHaveAttribute('aria-current');
    expect(
      screen.getByRole('link', { name: 'Tooth 11 (upper right central incisor), no images' }),
    ).toHaveAttribute('href', '/oral-photo/teeth/11');
  });

  it('says when a tooth has no images yet', async () => {
    openPage('/oral-photo/teeth/16');
    expect(await screen.findByText(/No photos of tooth 16 yet/)).toBeInTheDocument();
  });

  it('answers Page not found for a number that is not a permanent tooth', async () => {
    const { api } = openPage('/oral-photo/teeth/55');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(api.requests.filter((request) => request.path.includes('tooth='))).toHaveLength(0);
  });
});
