import { Alert } from '@mantine/core';
import { errorMessage } from '#web/lib/api-client';

/** Why a change was refused, under its form: nothing while there is no error. */
export function Failure({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  return (
    <Alert color="red" variant="outline">
      {typeof error === 'string' ? error : errorMessage(error)}
    </Alert>
  );
}
