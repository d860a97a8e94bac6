import { useState } from 'react';
import { Affix, Button, Group, Paper, Text } from '@mantine/core';
import { IconShare } from '@tabler/icons-react';
import { ShareDialog } from './share-dialog';
import { useReadOnlyRecord } from '../lib/viewed-record';

/** Which items of a list are chosen for a share link, while the member is choosing. */
export function useShareSelection() {
  const [choosing, setChoosing] = useState(false);
  const [ids, setIds] = useState<readonly string[]>([]);
  return {
    choosing,
    ids,
    isChosen: (id: string) => ids.includes(id),
    start: () => {
      setIds([]);
      setChoosing(true);
    },
    stop: () => {
      setIds([]);
      setChoosing(false);
    },
    choose: (id: string, chosen: boolean) => {
      setIds((current) =>
        chosen ? [...current.filter((other) => other !== id), id] : current.filter((x) => x !== id),
      );
    },
  };
}
export type ShareSelection = ReturnType<typeof useShareSelection>;

/** The list header's 'Share' button: starts choosing, or stops it. */
export function ShareButton({ selection }: { selection: ShareSelection }) {
  // Another member's record is only looked at, never shared (docs/product/proxy-access.md).
  const readOnly = useReadOnlyRecord();
  if (readOnly) return null;
  return (
    <Button
      variant={selection.choosing ? 'filled' : 'default'}
      leftSection={<IconShare size={16} aria-hidden />}
      aria-pressed={selection.choosing}
      onClick={selection.choosing ? selection.stop : selection.start}
    >
      Share
    </Button>
  );
}

export interface ShareSelectionBarProps {
  selection: ShareSelection;
  /** Which kind of item the ids are. */
  kind: 'photos' | 'records' | 'dental_ai' | 'reports';
  /** The chosen items in words ('2 items'), for the bar and the dialog. */
  noun: (count: number) => string;
}

/**
 * While choosing: a bar at the bottom with how many are chosen, Cancel and 'Share…', which opens
 * the share dialog (docs/product/sharing.md).
 */
export function ShareSelectionBar({ selection, kind, noun }: ShareSelectionBarProps) {
  const [sharing, setSharing] = useState(false);
  const count = selection.ids.length;
  if (!selection.choosing) return null;
  return (
    <>
      <Affix position={{ bottom: 16, left: 16, right: 16 }}>
        {/* A landmark of its own: the bar is rendered outside the page's main region. */}
        <Paper
          component="section"
          aria-label="Choose what to share"
          shadow="md"
          p="sm"
          withBorder
          maw={640}
          mx="auto"
        >
          <Group justify="space-between" gap="xs">
            <Text size="sm" aria-live="polite">
              {count === 0 ? 'Tick what to share.' : `${noun(count)} chosen.`}
            </Text>
            <Group gap="xs">
              <Button size="xs" variant="default" onClick={selection.stop}>
                Cancel
              </Button>
              <Button
                size="xs"
                disabled={count === 0}
                onClick={() => {
                  setSharing(true);
                }}
              >
                Share…
              </Button>
            </Group>
          </Group>
        </Paper>
      </Affix>
      <ShareDialog
        opened={sharing}
        onClose={(linkMade) => {
          setSharing(false);
          // Once shared, choosing is over; a dialog closed without a link keeps the choice.
          if (linkMade) selection.stop();
        }}
        photos={kind === 'photos' ? selection.ids : []}
        records={kind === 'records' ? selection.ids : []}
        dentalAi={kind === 'dental_ai' ? selection.ids : []}
        reports={kind === 'reports' ? selection.ids : []}
        summary={noun(count)}
      />
    </>
  );
}
