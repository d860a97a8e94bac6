import { useId } from 'react';
import { Button, Group, Text } from '@mantine/core';
import type { OutsideRangeCount } from '@dental/contracts';

/** How a list names its entries and the two sides of its dates. */
export interface OutsideRangeWords {
  /** One entry: 'photo'. */
  one: string;
  /** Several: 'photos'. */
  many: string;
  /** Entries before the first day: 'older'. */
  before: string;
  /** Entries after the last day: 'newer'. */
  after: string;
}

/** '3 older photos are outside these dates', '1 older and 2 newer records are …', or null when
 *  the dates leave nothing out (docs/decisions/older-items-hint.md). */
export function outsideRangeText(
  { before, after }: OutsideRangeCount,
  words: OutsideRangeWords,
): string | null {
  const total = before + after;
  if (total === 0) return null;
  const sides = [
    ...(before > 0 ? [`${String(before)} ${words.before}`] : []),
    ...(after > 0 ? [`${String(after)} ${words.after}`] : []),
  ].join(' and ');
  return total === 1
    ? `${sides} ${words.one} is outside these dates`
    : `${sides} ${words.many} are outside these dates`;
}

export interface OutsideRangeHintProps {
  count: OutsideRangeCount | undefined;
  words: OutsideRangeWords;
  /** Widens the dates to everything. */
  onShowAll: () => void;
}

/** Under a dated list: what its dates hide, and 'Show all' to widen them to every date. */
export function OutsideRangeHint({ count, words, onShowAll }: OutsideRangeHintProps) {
  const textId = useId();
  const text = count === undefined ? null : outsideRangeText(count, words);
  if (text === null) return null;
  return (
    <Group gap="xs" wrap="wrap">
      <Text id={textId}>{text} —</Text>
      <Button variant="light" size="compact-md" aria-describedby={textId} onClick={onShowAll}>
        Show all
      </Button>
    </Group>
  );
}
