import { Alert, Button, Stack, Text } from '@mantine/core';
import { errorMessage } from '../lib/api-client';

export interface LoadFailedProps {
  /** What the failed query threw: its message says why. */
  error: unknown;
  /** Loads again, e.g. the query's refetch. */
  onRetry: () => unknown;
}

/** Every list's failed load: says it failed and offers Retry, so it never reads as an empty list
 *  (docs/decisions/patient-grade-defects.md). */
export function LoadFailed({ error, onRetry }: LoadFailedProps) {
  return (
    // No Alert title: Mantine's red title text falls short of the contrast ratio (axe).
    <Alert color="red" variant="outline">
      <Stack gap="xs" align="flex-start">
        <Text fw={600}>Loading failed</Text>
        <Text size="sm">{errorMessage(error)}</Text>
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
