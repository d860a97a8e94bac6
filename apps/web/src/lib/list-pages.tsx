import { useRef } from 'react';
import { Button, Loader, Stack, Text, VisuallyHidden } from '@mantine/core';
import {
  keepPreviousData,
  useInfiniteQuery,
  type InfiniteData,
  type QueryKey,
  type UseInfiniteQueryResult,
} from '@tanstack/react-query';
import type { z } from 'zod';
import { delegationMemberParam } from '@dental/contracts';
import { apiAnswer } from './api-client';

/** Rows asked for at a time by the photo, record and appointment lists
 *  (docs/decisions/web-list-paging.md). */
export const listPageSize = 30;

/** Any origin will do: the API's links are relative to the request, and only their path and
 *  query are kept. */
const requestBase = 'http://list.invalid';

/**
 * The path of the page after `requestPath`, from its answer's `Link` header (RFC 8288), or
 * undefined on the last page. The link repeats the request's `?member=`, which the API client
 * adds to every health-data call itself: sent twice it would be refused, so it is dropped here.
 */
export function nextPagePath(link: string | null, requestPath: string): string | undefined {
  for (const [, reference = '', params = ''] of (link ?? '').matchAll(/<([^>]*)>([^<]*)/g)) {
    const rel = /;\s*rel\s*=\s*"?([^";]*)"?/i.exec(params)?.[1] ?? '';
    if (!rel.toLowerCase().split(/\s+/).includes('next')) continue;
    const next = new URL(reference, new URL(requestPath, requestBase));
    next.searchParams.delete(delegationMemberParam);
    return `${next.pathname}${next.search}`;
  }
  return undefined;
}

interface ListPage<Row> {
  rows: Row[];
  next: string | undefined;
}

/** Stable across renders, so the rows are only gathered again when a page arrives. */
function rowsOf<Row>(data: InfiniteData<ListPage<Row>>): Row[] {
  return data.pages.flatMap((page) => page.rows);
}

export interface ListPagesOptions<Row> {
  queryKey: QueryKey;
  /** The list's path, e.g. `/api/oral-photo/`. */
  path: string;
  /** The screen's filters; the first page adds `limit`, later pages follow the API's link. */
  filters: Readonly<Record<string, string>>;
  schema: z.ZodType<Row[]>;
  enabled: boolean;
}

/**
 * A growing list read a page at a time (docs/decisions/web-list-paging.md): `data` is every row
 * loaded so far, and `fetchNextPage` follows the last answer's `rel="next"` link until there is
 * none. A change of filters shows the former rows until the new first page arrives.
 */
export function useListPages<Row>({
  queryKey,
  path,
  filters,
  schema,
  enabled,
}: ListPagesOptions<Row>) {
  const firstPage = new URLSearchParams({ ...filters, limit: String(listPageSize) });
  return useInfiniteQuery({
    queryKey,
    queryFn: async ({ pageParam }): Promise<ListPage<Row>> => {
      const { body, headers } = await apiAnswer(pageParam, schema);
      return { rows: body, next: nextPagePath(headers.get('Link'), pageParam) };
    },
    initialPageParam: `${path}?${firstPage.toString()}`,
    getNextPageParam: (lastPage) => lastPage.next,
    select: rowsOf,
    enabled,
    placeholderData: keepPreviousData,
  });
}

export interface LoadMoreProps<Row> {
  list: UseInfiniteQueryResult<Row[]>;
  /** What the rows are, in the plural: 'appointments'. */
  noun: string;
  /** While a bar is fixed at the bottom of the screen (Compare, Share), the list ends with room
   *  for it: a phone's bar is taller than the footer and would hide the button. */
  roomForBottomBar?: boolean;
}

/** Clears the tallest bottom bar, Compare's at 360 px (107 px high, 16 px up), with a margin,
 *  above the page's padding and footer. */
export const bottomBarRoom = 120;

/**
 * 'Load more …' below a list while the API has more, then, once the member has loaded them all,
 * 'All N … are shown.' The button stays enabled while a page loads, so that keyboard focus stays
 * on it; when it goes away the focus moves to the closing line instead of the top of the page.
 */
export function LoadMore<Row>({ list, noun, roomForBottomBar = false }: LoadMoreProps<Row>) {
  // Set by the member's click, so that only their own last page moves the focus.
  const focusAllShown = useRef(false);
  const count = list.data?.length ?? 0;
  const loadedMore = count > listPageSize;

  // Former rows shown while new filters load are not the list the button would continue.
  if (list.data === undefined || list.isPlaceholderData) return null;
  return (
    <Stack align="center" gap="xs" mt="md" mb={roomForBottomBar ? bottomBarRoom : undefined}>
      {list.hasNextPage ? (
        <Button
          variant="default"
          leftSection={list.isFetchingNextPage ? <Loader size={14} /> : undefined}
          onClick={() => {
            // A refresh in flight would be overwritten by a page fetched beside it.
            if (list.isFetching) return;
            focusAllShown.current = true;
            void list.fetchNextPage().then((result) => {
              if (result.isError || result.hasNextPage) focusAllShown.current = false;
            });
          }}
        >
          Load more {noun}
        </Button>
      ) : (
        loadedMore && (
          <Text
            ref={(line: HTMLParagraphElement | null) => {
              if (line === null || !focusAllShown.current) return;
              focusAllShown.current = false;
              line.focus();
            }}
            tabIndex={-1}
            c="dimmed"
          >
            All {count} {noun} are shown.
          </Text>
        )
      )}
      <VisuallyHidden role="status">
        {list.isFetchingNextPage
          ? `Loading more ${noun}…`
          : loadedMore && list.hasNextPage
            ? `${String(count)} ${noun} shown.`
            : ''}
      </VisuallyHidden>
    </Stack>
  );
}
