import type { ReactNode } from 'react';
import { Button } from '@mantine/core';

/** The full-width submit button of the sign-in forms; it spins while the form is being sent. */
export function SubmitButton({ pending, children }: { pending: boolean; children: ReactNode }) {
  return (
    <Button type="submit" loading={pending} fullWidth>
      {children}
    </Button>
  );
}
