import { screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { oralPhotoPaths, type OralPhoto } from '@dental/contracts';
import { monthAroundToday } from '#web/components/date-range-filter';
import { listPageSize } from '#web/lib/list-pages';
import { sessionStore } from '#web/lib/session-store';
import { json, problemResponse, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const range = monthAroundToday();
const listPath = `${oralPhotoPaths.list}?photoType=all&startDate=${range.startDate}&endDate=${range.endDate}&limit=${String(listPageSize)}`;

const xRay: OralPhoto = {
  id: '1f0c6a2e-7b41-4c1e-9a52-3b7d2e9f1a01',
  shoot_date: range.startDate,
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
const photo: OralPhoto = {
  ...xRay,
  id: '2a1d7b3f-8c52-4d2f-8b63-4c8e3fa02b12',
  photo_type: 'Photo',
  image_link: '/api/files/photo.png?sig=2',
  thumbnail_link: '/api/files/photo.webp?sig=2',
};

/** `count` X-rays on the days after the range's start, `from` days in, one a day. */
function xRaysFrom(from: number, count: number): OralPhoto[] {
  return Array.from({ length: count }, (_, day) => ({
    ...xRay,
    id: crypto.randomUUID(),
    shoot_date: dayjs(range.startDate)
      .add(from + day, 'day')
      .format('YYYY-MM-DD'),
  }));
}

/** A list page that has more after it, with the API's `Link` to the next. */
function pageWithNext(photos: OralPhoto[], next: string): Response {
  const response = json(photos);
  response.headers.set('Link', `<${next}>; rel="next"`);
  return response;
}

async function openList(handlers: Parameters<typeof stubFetch>[0]) {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  const api = stubFetch({ 'GET /api/account/': () => json(testAccount), ...handlers });
  const view = renderRoute('/oral-photo');
  await screen.findByRole('heading', { name: 'X-rays and Photos Storage', level: 1 });
  return { api, ...view };
}

describe('X-rays and Photos Storage list', () => {
  it('shows a guided capture as one entry with its thumbnails, opening the set', async () => {
    const setId = '7c1e2d3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    const views = (['front', 'upper', 'lower', 'left', 'right'] as const).map((view) => ({
      ...photo,
      id: crypto.randomUUID(),
      thumbnail_link: `/api/files/${view}.webp?sig=3`,
      capture_set_id: setId,
      capture_view: view,
    }));
    await openList({ [`GET ${listPath}`]: () => json([...views, xRay]) });
    const entry = await screen.findByRole('link', {
      name: `${range.startDate} Set of photos, 5 views`,
    });
    expect(entry).toHaveAttribute('href', `/oral-photo/sets/${setId}`);
    expect(entry.querySelectorAll('img')).toHaveLength(5);
    // The set's photos are not cards of their own; the X-ray beside it is.
    expect(screen.queryByRole('button', { name: `${range.startDate} Photo` })).toBeNull();
    expect(screen.getByRole('button', { name: `${range.startDate} X-ray` })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Take photos' })).toHaveAttribute(
      'href',
      '/oral-photo/capture',
    );
  });

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
    await user.type(screen.getByLabelText('From'), '2199-01-01');

    expect(
      await screen.findByText('The start date must not be after the end date.'),
    ).toBeInTheDocument();
    expect(api.requests.filter((request) => request.path.includes('2199-01-01'))).toHaveLength(0);
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

describe('X-rays and Photos Storage list, a page at a time', () => {
  const firstPage = xRaysFrom(0, listPageSize);
  const [lastPhoto] = xRaysFrom(listPageSize, 1);
  const nextPath = `${listPath}&offset=${String(listPageSize)}`;
  const cardsShown = () => screen.getAllByRole('button', { name: / X-ray$/ });

  it('asks for one page, loads the next from the Link with Load more, and says when all are shown', async () => {
    const { api, user } = await openList({
      [`GET ${listPath}`]: () => pageWithNext(firstPage, nextPath),
      [`GET ${nextPath}`]: () => json([lastPhoto]),
    });
    const loadMore = await screen.findByRole('button', { name: 'Load more photos and X-rays' });
    expect(cardsShown()).toHaveLength(listPageSize);
    expect(api.to(`GET ${listPath}`)).toHaveLength(1);

    await user.click(loadMore);

    expect(
      await screen.findByRole('button', { name: `${lastPhoto?.shoot_date ?? ''} X-ray` }),
    ).toBeInTheDocument();
    expect(cardsShown()).toHaveLength(listPageSize + 1);
    expect(api.to(`GET ${nextPath}`)).toHaveLength(1);
    expect(screen.queryByRole('button', { name: /Load more/ })).not.toBeInTheDocument();
    // The button is gone, so keyboard focus moves to the line that takes its place.
    expect(screen.getByText('All 31 photos and X-rays are shown.')).toHaveFocus();
  });

  it('offers no Load more when the first page is the whole list', async () => {
    await openList({ [`GET ${listPath}`]: () => json([xRay, photo]) });
    expect(await screen.findByRole('button', { name: `${range.startDate} Photo` })).toBeVisible();
    expect(screen.queryByRole('button', { name: /Load more/ })).not.toBeInTheDocument();
    expect(screen.queryByText(/are shown/)).not.toBeInTheDocument();
  });

  it('keeps the type filter in the first page and in the pages that follow', async () => {
    const xRaysPath = listPath.replace('photoType=all', 'photoType=X-ray');
    const nextXRaysPath = `${xRaysPath}&offset=${String(listPageSize)}`;
    const { api, user } = await openList({
      [`GET ${listPath}`]: () => json([xRay, photo]),
      [`GET ${xRaysPath}`]: () => pageWithNext(firstPage, nextXRaysPath),
      [`GET ${nextXRaysPath}`]: () => json([lastPhoto]),
    });
    await screen.findByRole('button', { name: `${range.startDate} Photo` });

    await user.click(screen.getByRole('radio', { name: 'X-rays' }));
    await user.click(await screen.findByRole('button', { name: 'Load more X-rays' }));

    expect(await screen.findByText('All 31 X-rays are shown.')).toBeInTheDocument();
    expect(api.to(`GET ${nextXRaysPath}`)).toHaveLength(1);
  });

  it('refreshes the pages loaded once a photo is deleted', async () => {
    // Pages of two keep the list short; the client follows whatever link the API gives.
    let photos = xRaysFrom(0, 3);
    const [deleted, , onNextPage] = photos;
    const { api, user } = await openList({
      [`GET ${listPath}`]: () =>
        photos.length > 2 ? pageWithNext(photos.slice(0, 2), nextPath) : json(photos),
      [`GET ${nextPath}`]: () => json(photos.slice(2)),
      [`DELETE ${oralPhotoPaths.one(deleted?.id ?? '')}`]: () => {
        photos = photos.slice(1);
        return new Response(null, { status: 204 });
      },
    });
    const nameOf = (shown: OralPhoto | undefined) => `${shown?.shoot_date ?? ''} X-ray`;
    await user.click(await screen.findByRole('button', { name: 'Load more photos and X-rays' }));
    await screen.findByRole('button', { name: nameOf(onNextPage) });

    await user.click(screen.getByRole('button', { name: nameOf(deleted) }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete photo' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => {
      expect(screen.queryByRole('button', { name: nameOf(deleted) })).not.toBeInTheDocument();
    });
    expect(cardsShown()).toHaveLength(2);
    expect(screen.getByRole('button', { name: nameOf(onNextPage) })).toBeVisible();
    // The refreshed first page ends the list: without its link no second page is asked for.
    expect(api.to(`GET ${listPath}`)).toHaveLength(2);
    expect(api.to(`GET ${nextPath}`)).toHaveLength(1);
  });
});

describe('Photos outside the list’s dates', () => {
  it('counts the type shown: one older X-ray, said in the singular', async () => {
    const dates = `startDate=${range.startDate}&endDate=${range.endDate}`;
    const xRayList = `${oralPhotoPaths.list}?photoType=X-ray&${dates}&limit=${String(listPageSize)}`;
    const { user } = await openList({
      [`GET ${listPath}`]: () => json([photo]),
      [`GET ${oralPhotoPaths.outsideRange}?photoType=all&${dates}`]: () =>
        json({ before: 2, after: 1 }),
      [`GET ${xRayList}`]: () => json([]),
      [`GET ${oralPhotoPaths.outsideRange}?photoType=X-ray&${dates}`]: () =>
        json({ before: 1, after: 0 }),
    });
    expect(
      await screen.findByText('2 older and 1 newer photos and X-rays are outside these dates —'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'X-rays' }));
    expect(await screen.findByText('1 older X-ray is outside these dates —')).toBeInTheDocument();
  });
});
