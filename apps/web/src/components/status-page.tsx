import type { ReactNode } from 'react';
import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '#web/config/paths';
import { useDocumentTitle } from '../lib/document-title';

export interface StatusPageProps {
  title: string;
  children: ReactNode;
}

/** A page inside the framed layout that only says something and leads back home. */
export function StatusPage({ title, children }: StatusPageProps) {
  useDocumentTitle(title);
  return (
    <Stack gap="md">
      <Title order={1}>{title}</Title>
      <Text>{children}</Text>
      <Anchor component={Link} to={paths.home}>
        Back to home
      </Anchor>
    </Stack>
  );
}
