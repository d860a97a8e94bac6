import { Center, Loader } from '@mantine/core';

/** The spinner shown while a screen or its data loads. */
export function PageSpinner() {
  return (
    <Center py="xl" role="status" aria-label="Loading">
      <Loader />
    </Center>
  );
}
