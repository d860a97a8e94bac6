import { Text } from '@mantine/core';

/** The knowledge, supplier and activity pages' empty state; a failed load shows LoadFailed. */
export function NothingToShow() {
  return <Text>Nothing to show right now.</Text>;
}
