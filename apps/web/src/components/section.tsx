import { useId, type ReactNode } from 'react';
import { Paper, Title } from '@mantine/core';

/** A titled section of a screen built of sections (Profile, Password and devices). */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Paper component="section" withBorder p="md" aria-labelledby={headingId}>
      <Title order={2} size="h3" mb="sm" id={headingId}>
        {title}
      </Title>
      {children}
    </Paper>
  );
}
