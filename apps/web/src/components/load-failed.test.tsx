import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { oralPhotoPaths } from '@dental/contracts';
import { monthAroundToday } from '#web/components/date-range-filter';
import { listPageSize } from '#web/lib/list-pages';
import { sessionStore } from '#web/lib/session-store';
import { json, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';
import { offlineText } from './load-failed';

const range = monthAroundToday();
const photoList = `GET ${oralPhotoPaths.list}?photoType=all&startDate=${range.startDate}&endDate=${range.endDate}&limit=${String(listPageSize)}`;

/** What fetch does when the request cannot leave the device. */
const noNetwork = () => Promise.reject(new TypeError('Failed to fetch'));

function openPhotosWithoutServer(online: boolean) {
  vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(online);
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  const api = stubFetch({ 'GET /api/account/': () => json(testAccount), [photoList]: noNetwork });
  return { api, ...renderRoute('/oral-photo') };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a screen whose data cannot load', () => {
  it('says plainly that the device is offline, at once, and leads to the knowledge articles', async () => {
    const { api } = openPhotosWithoutServer(false);
    expect(await screen.findByText('You are offline')).toBeInTheDocument();
    expect(screen.getByText(offlineText)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Read dental knowledge' })).toHaveAttribute(
      'href',
      '/dental-knowledge',
    );
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    // Tried once, not held back until the network returns nor retried into a longer wait.
    expect(api.to(photoList)).toHaveLength(1);
  });

  it('keeps saying the server could not be reached when the device is online', async () => {
    openPhotosWithoutServer(true);
    expect(
      await screen.findByText(
        'We could not reach the server. Check your connection and try again.',
        undefined,
        { timeout: 8000 },
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText('You are offline')).not.toBeInTheDocument();
  });
});
