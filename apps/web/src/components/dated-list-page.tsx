import { Fragment, useState, type ReactNode } from 'react';
import { Accordion, Button, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import type { OutsideRangeCount } from '@dental/contracts';
import { Link, useLocation } from 'react-router';
import { useDocumentTitle } from '../lib/document-title';
import { DateRangeFilter, isDateRangeValid, type DateRange } from './date-range-filter';
import { LoadFailed } from './load-failed';
import { OutsideRangeHint, type OutsideRangeWords } from './outside-range-hint';
import { PageSpinner } from './page-spinner';
import { openedEntryOf } from './saved-entry-range';
import { useReadOnlyRecord } from '../lib/viewed-record';

export interface ListChoice<Value extends string> {
  /** The accessible name of the segmented control. */
  label: string;
  data: { label: string; value: Value }[];
  value: Value;
  onChange: (value: Value) => void;
}

export interface DatedListPageProps<Value extends string, Entry extends { id: string }> {
  title: string;
  /** Where '+Add' leads. */
  addPath: string;
  /** Further links shown before '+Add' (e.g. the photos' 'By tooth'). */
  links?: ReactNode;
  /** The order or type switch over the date range. */
  choice: ListChoice<Value>;
  range: DateRange;
  onRangeChange: (range: DateRange) => void;
  /** The list query, disabled by its page while the range is invalid. */
  entries: UseQueryResult<Entry[]>;
  emptyText: string;
  /** How many entries the dates leave out, and the list's words for them: said under the list
   *  with 'Show all' (docs/decisions/older-items-hint.md). */
  outside: { count: UseQueryResult<OutsideRangeCount>; words: OutsideRangeWords };
  /** Cards that open one at a time in an accordion, rather than cards that are always open. */
  expandable?: boolean;
  renderEntry: (entry: Entry, opened: boolean) => ReactNode;
}

/** 'Show all': both ends open. */
const everyDate: DateRange = { startDate: '', endDate: '' };

/** The list screens (docs/product/records.md, docs/product/appointments.md; photos, records,
 *  appointments): title and '+Add', a switch, the date range, then a spinner, the error, the empty
 *  text or the cards. */
export function DatedListPage<Value extends string, Entry extends { id: string }>({
  title,
  addPath,
  links,
  choice,
  range,
  onRangeChange,
  entries,
  emptyText,
  outside,
  expandable = false,
  renderEntry,
}: DatedListPageProps<Value, Entry>) {
  useDocumentTitle(title);
  const readOnly = useReadOnlyRecord();
  const { state } = useLocation() as { state: unknown };
  const [openedId, setOpenedId] = useState<string | null>(() => openedEntryOf(state));
  const cards = entries.data?.map((entry) => (
    <Fragment key={entry.id}>{renderEntry(entry, openedId === entry.id)}</Fragment>
  ));
  const hasCards = cards !== undefined && cards.length > 0;

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{title}</Title>
        <Group gap="xs">
          {links}
          {/* Nothing is added to another member's record (docs/product/proxy-access.md). */}
          {!readOnly && (
            <Button component={Link} to={addPath}>
              +Add
            </Button>
          )}
        </Group>
      </Group>
      <SegmentedControl
        aria-label={choice.label}
        data={choice.data}
        value={choice.value}
        onChange={choice.onChange}
        fullWidth
      />
      <DateRangeFilter value={range} onChange={onRangeChange} />
      {/* A query disabled by an invalid range stays pending without loading anything. */}
      {entries.isPending && isDateRangeValid(range) && <PageSpinner />}
      {entries.isError && <LoadFailed error={entries.error} onRetry={entries.refetch} />}
      {entries.data?.length === 0 && (
        <Stack gap={0}>
          <Text c="dimmed">{emptyText}</Text>
          <Text c="dimmed">Choose other dates above, or add one with +Add.</Text>
        </Stack>
      )}
      {hasCards &&
        (expandable ? (
          <Accordion variant="separated" value={openedId} onChange={setOpenedId}>
            {cards}
          </Accordion>
        ) : (
          cards
        ))}
      {!entries.isError && (
        <OutsideRangeHint
          count={outside.count.data}
          words={outside.words}
          onShowAll={() => {
            onRangeChange(everyDate);
          }}
        />
      )}
    </Stack>
  );
}
