import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { oralPhotoPaths, type OralPhoto } from '@dental/contracts';
import { monthAroundToday } from '#web/components/date-range-filter';
import { sessionStore } from '#web/lib/session-store';
import { json, problemResponse, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const range = monthAroundToday();
const listPath = `${oralPhotoPaths.list}?photoType=all&startDate=${range.startDate}&endDate=${range.endDate}`;

const xRay: OralPhoto = {
  id: '1f0c6a2e-7b41-4c1e-9a52-3b7d2e9f1a01',
  shoot_date: range.startDate,
  date: '2026-01-05T10:00:00.000Z',
  photo_type: 'X-ray',
  image_link: '/api/files/x-ray.png?sig=1',
  thumbnail_link: '/api/files/x-ray.webp?sig=1',
  original_link: null,
  note: '',
  teeth: [],
};
const photo: OralPhoto = {
  ...xRay,
  id: '2a1d7b3f-8c52-4d2f-8b63-4c8e3fa02b12',
  photo_type: 'Photo',
  image_link: '/api/files/photo.png?sig=2',
  thumbnail_link: '/api/files/photo.webp?sig=2',
};

async function openList(handlers: Parameters<typeof stubFetch>[0]) {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  const api = stubFetch({ 'GET /api/account/': () => json(testAccount), ...handlers });
  const view = renderRoute('/oral-photo');
  await screen.findByRole('heading', { name: 'X-rays and Photos Storage', level: 1 });
  return { api, ...view };
}

describe('X-rays and Photos Storage list', () => {
  it('opens one card at a time, and only an open card loads its thumbnail', async () => {
    const { user } = await openList({ [`GET ${listPath}`]: () => json([xRay, photo]) });
    const xRayCard = await screen.findByRole('button', { name: `${range.startDate} X-ray` });
    const photoCard = screen.getByRole('button', { name: `${range.startDate} Photo` });
    expect(screen.queryByRole('img', { name: /of / })).not.toBeInTheDocument();

    // The panels open with a transition, so their content is waited for.
    await user.click(xRayCard);
    expect(
      await screen.findByRole('img', { name: `X-ray of ${range.startDate}` }),
    ).toBeInTheDocument();

    await user.click(photoCard);
    expect(
      await screen.findByRole('img', { name: `Photo of ${range.startDate}` }),
    ).toBeInTheDocument();
    expect(
      screen.queryByRole('img', { name: `X-ray of ${range.startDate}` }),
    ).not.toBeInTheDocument();
  });

  it('asks for nothing while the range runs backwards', async () => {
    const { api, user } = await openList({ [`GET ${listPath}`]: () => json([]) });
    expect(await screen.findByText('No photos in this period.')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('From'));
    await user.type(screen.getByLabelText('From'), '2999-01-01');

    expect(
      await screen.findByText('The start date must not be after the end date.'),
    ).toBeInTheDocument();
    expect(api.requests.filter((request) => request.path.includes('2999-01-01'))).toHaveLength(0);
  });

  it('tells a refused delete in the dialog, and not again when it is opened anew', async () => {
    const { user } = await openList({
      [`GET ${listPath}`]: () => json([xRay]),
      [`DELETE ${oralPhotoPaths.one(xRay.id)}`]: () =>
        problemResponse(503, 'Storage is unavailable. Please try again later.'),
    });
    await user.click(await screen.findByRole('button', { name: `${range.startDate} X-ray` }));

    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete photo' });
    expect(
      within(dialog).getByText(
        `Do you really want to delete this X-ray of ${range.startDate}? This cannot be undone.`,
      ),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await within(dialog).findByText('Storage is unavailable. Please try again later.'),
    ).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const reopened = await screen.findByRole('dialog', { name: 'Delete photo' });
    expect(
      within(reopened).queryByText('Storage is unavailable. Please try again later.'),
    ).not.toBeInTheDocument();
  });

  it('closes the dialog once the photo is deleted and shows the list without it', async () => {
    let photos = [xRay];
    const { user } = await openList({
      [`GET ${listPath}`]: () => json(photos),
      [`DELETE ${oralPhotoPaths.one(xRay.id)}`]: () => {
        photos = [];
        return new Response(null, { status: 204 });
      },
    });
    await user.click(await screen.findByRole('button', { name: `${range.startDate} X-ray` }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete photo' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('No photos in this period.')).toBeInTheDocument();
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    });
  });
});
