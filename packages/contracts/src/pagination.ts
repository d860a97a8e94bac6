import { z } from 'zod';

/** The most rows `offset` may skip: deeper pages are not a use of these lists. */
export const maxPageOffset = 100_000;

/**
 * `?limit=` and `?offset=` of a list that can grow (docs/decisions/list-paging-and-caps.md). Without them a list answers the
 * same array as before (`maxLimit` rows from the first); a `Link: <…>; rel="next"` header
 * (RFC 8288) names the next page while more rows remain.
 */
export function pageQueryFields(maxLimit: number) {
  return {
    limit: z.coerce
      .number(`limit must be a whole number from 1 to ${String(maxLimit)}.`)
      .int(`limit must be a whole number from 1 to ${String(maxLimit)}.`)
      .min(1, `limit must be a whole number from 1 to ${String(maxLimit)}.`)
      .max(maxLimit, `limit must be a whole number from 1 to ${String(maxLimit)}.`)
      .default(maxLimit),
    offset: z.coerce
      .number(`offset must be a whole number from 0 to ${String(maxPageOffset)}.`)
      .int(`offset must be a whole number from 0 to ${String(maxPageOffset)}.`)
      .min(0, `offset must be a whole number from 0 to ${String(maxPageOffset)}.`)
      .max(maxPageOffset, `offset must be a whole number from 0 to ${String(maxPageOffset)}.`)
      .default(0),
  };
}

export interface PageRequest {
  limit: number;
  offset: number;
}

/**
 * How many of the member's entries a dated list leaves out, under its other filters: `before`
 * lie before the range's first day, `after` after its last; an open end leaves none out on its
 * side (docs/decisions/older-items-hint.md).
 */
export const outsideRangeCount = z.object({
  before: z.number().int().min(0),
  after: z.number().int().min(0),
});
export type OutsideRangeCount = z.infer<typeof outsideRangeCount>;
