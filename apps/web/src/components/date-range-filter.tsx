import { Group, TextInput } from '@mantine/core';
import dayjs from 'dayjs';
import { dateFormat } from '../lib/dates';

export interface DateRange {
  /** YYYY-MM-DD; '' means open-ended. */
  startDate: string;
  endDate: string;
}

/** The default range of the photo and record lists: one month before to one month after today
 *  (docs/product/general.md#date-filters). */
export function monthAroundToday(today = dayjs()): DateRange {
  return {
    startDate: today.subtract(1, 'month').format(dateFormat),
    endDate: today.add(1, 'month').format(dateFormat),
  };
}

/** The range as list query parameters: empty ends are left out. */
export function dateRangeParams(range: DateRange): Record<string, string> {
  return {
    ...(range.startDate === '' ? {} : { startDate: range.startDate }),
    ...(range.endDate === '' ? {} : { endDate: range.endDate }),
  };
}

/** Open ends always fit; two dates must not run backwards. */
export function isDateRangeValid(range: DateRange): boolean {
  return range.startDate === '' || range.endDate === '' || range.startDate <= range.endDate;
}

export interface DateRangeFilterProps {
  value: DateRange;
  onChange: (range: DateRange) => void;
}

/** The date-range filter of the list screens (docs/product/general.md#date-filters): two calendar
 *  dates, both inclusive. */
export function DateRangeFilter({ value, onChange }: DateRangeFilterProps) {
  return (
    <Group gap="sm" grow preventGrowOverflow={false} wrap="wrap" align="flex-start">
      <TextInput
        type="date"
        label="From"
        value={value.startDate}
        miw={140}
        onChange={(event) => {
          onChange({ ...value, startDate: event.currentTarget.value });
        }}
      />
      <TextInput
        type="date"
        label="To"
        value={value.endDate}
        miw={140}
        error={
          isDateRangeValid(value) ? undefined : 'The start date must not be after the end date.'
        }
        onChange={(event) => {
          onChange({ ...value, endDate: event.currentTarget.value });
        }}
      />
    </Group>
  );
}
