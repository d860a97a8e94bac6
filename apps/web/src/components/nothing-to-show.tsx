import { Text } from '@mantine/core';

/** The knowledge and supplier pages' empty state, also shown when their call fails. */
export function NothingToShow() {
  return <Text>Nothing to show right now.</Text>;
}
