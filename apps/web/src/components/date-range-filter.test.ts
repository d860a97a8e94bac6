import { describe, expect, it } from 'vitest';
import { isDateRangeValid } from './date-range-filter';

describe('isDateRangeValid', () => {
  it.each([
    { startDate: '2026-01-01', endDate: '2026-01-31', valid: true },
    { startDate: '2026-01-31', endDate: '2026-01-31', valid: true },
    { startDate: '2026-02-01', endDate: '2026-01-31', valid: false },
    { startDate: '', endDate: '2026-01-31', valid: true },
    { startDate: '2026-02-01', endDate: '', valid: true },
    { startDate: '', endDate: '', valid: true },
  ])('$startDate to $endDate: $valid', ({ startDate, endDate, valid }) => {
    expect(isDateRangeValid({ startDate, endDate })).toBe(valid);
  });
});
