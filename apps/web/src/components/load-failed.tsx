import { createContext, useContext } from 'react';
import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { ApiError, errorMessage } from '../lib/api-client';

export interface LoadFailedProps {
  /** What the failed query threw: its message says why. */
  error: unknown;
  /** Loads again, e.g. the query's refetch. */
  onRetry: () => unknown;
}

/** The screen that still opens without a connection, offered where a load failed offline: the
 *  signed-in patient's frame names the dental knowledge (docs/decisions/installable-app.md); the
 *  public screens and the clinic console have none. */
export const OfflineReading = createContext<{ to: string; label: string } | null>(null);

const offlineTitle = 'You are offline';
export const offlineText =
  'This screen needs an internet connection. Dental knowledge articles you have already opened can still be read.';

/** A call that could not leave the device because it has no network (not a server that is down:
 *  that keeps the message that says the server could not be reached). */
function isOffline(error: unknown): boolean {
  return error instanceof ApiError && error.status === 0 && !navigator.onLine;
}

/** Every list's failed load: says it failed and offers Retry, so it never reads as an empty list
 *  (docs/decisions/patient-grade-defects.md); offline, it says so plainly and offers what works
 *  without a connection. */
export function LoadFailed({ error, onRetry }: LoadFailedProps) {
  const reading = useContext(OfflineReading);
  const { pathname } = useLocation();
  const offline = isOffline(error);
  return (
    // No Alert title: Mantine's red title text falls short of the contrast ratio (axe).
    <Alert color={offline ? 'gray' : 'red'} variant="outline">
      <Stack gap="xs" align="flex-start">
        <Text fw={600}>{offline ? offlineTitle : 'Loading failed'}</Text>
        <Text size="sm">{offline ? offlineText : errorMessage(error)}</Text>
        {offline && reading !== null && reading.to !== pathname && (
          <Anchor component={Link} to={reading.to} size="sm">
            {reading.label}
          </Anchor>
        )}
        <Button
          size="xs"
          variant="default"
          onClick={() => {
            void onRetry();
          }}
        >
          Retry
        </Button>
      </Stack>
    </Alert>
  );
}
