import { Button, Container, Stack, Text, Title } from '@mantine/core';
import { useRouteError } from 'react-router';
import { ChunkLoadError } from '../lib/lazy-route';

function reload(): void {
  window.location.reload();
}

/** Shown when a route fails, most often a script chunk that could not be downloaded
 *  (docs/product/general.md#script-chunks). */
export function RouteErrorPage() {
  const error = useRouteError();
  const chunkFailed = error instanceof ChunkLoadError;
  return (
    <Container component="main" size="sm" py="xl">
      <Stack gap="md">
        <Title order={1}>
          {chunkFailed ? 'This page could not be loaded' : 'Something went wrong'}
        </Title>
        <Text>
          {chunkFailed
            ? 'A part of the app did not download. Check your connection, then reload the page.'
            : 'An unexpected error stopped this page. Reloading usually helps.'}
        </Text>
        <div>
          <Button onClick={reload}>Reload</Button>
        </div>
      </Stack>
    </Container>
  );
}
