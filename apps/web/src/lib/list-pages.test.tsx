import type { ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { oralPhotoList } from '@dental/contracts';
import { createQueryClient } from '../app/providers';
import { json, stubFetch } from '../test/fetch-stub';
import { listPageSize, nextPagePath, useListPages } from './list-pages';
import { sessionStore } from './session-store';
import { viewedRecordStore } from './viewed-record';

const alex = { id: '7d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6', username: 'Alex' };

describe('nextPagePath', () => {
  const asked = '/api/oral-photo/?photoType=all&limit=30';
  it.each([
    ['no Link header', null, undefined],
    [
      'a path',
      '</api/oral-photo/?photoType=all&limit=30&offset=30>; rel="next"',
      '/api/oral-photo/?photoType=all&limit=30&offset=30',
    ],
    [
      'a query relative to the request',
      '<?limit=30&offset=60>; rel=next',
      '/api/oral-photo/?limit=30&offset=60',
    ],
    [
      'the next among other links',
      '</api/oral-photo/?limit=30>; rel="first", </api/oral-photo/?limit=30&offset=30>; rel="next"',
      '/api/oral-photo/?limit=30&offset=30',
    ],
    ['only other links', '</api/oral-photo/?limit=30>; rel="first"', undefined],
    [
      'another member’s record, named by the API client instead',
      `</api/oral-photo/?limit=30&member=${alex.id}&offset=30>; rel="next"`,
      '/api/oral-photo/?limit=30&offset=30',
    ],
  ])('reads %s', (_, link, next) => {
    expect(nextPagePath(link, asked)).toBe(next);
  });
});

describe('useListPages', () => {
  afterEach(() => {
    viewedRecordStore.view(null);
  });

  it('names another member’s record once on the pages after the first', async () => {
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    viewedRecordStore.view(alex);
    const first = `/api/oral-photo/?photoType=all&limit=${String(listPageSize)}`;
    const second = `/api/oral-photo/?photoType=all&limit=${String(listPageSize)}&offset=${String(listPageSize)}`;
    const api = stubFetch({
      // The API's link keeps the request's query, ?member= included.
      [`GET ${first}&member=${alex.id}`]: () => {
        const response = json([]);
        response.headers.set('Link', `<${first}&member=${alex.id}&offset=30>; rel="next"`);
        return response;
      },
      [`GET ${second}&member=${alex.id}`]: () => json([]),
    });
    const queryClient = createQueryClient();
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(
      () =>
        useListPages({
          queryKey: ['photos'],
          path: '/api/oral-photo/',
          filters: { photoType: 'all' },
          schema: oralPhotoList,
          enabled: true,
        }),
      { wrapper },
    );
    await waitFor(() => {
      expect(result.current.hasNextPage).toBe(true);
    });

    await result.current.fetchNextPage();

    expect(result.current.isError).toBe(false);
    expect(api.to(`GET ${second}&member=${alex.id}`)).toHaveLength(1);
  });
});
