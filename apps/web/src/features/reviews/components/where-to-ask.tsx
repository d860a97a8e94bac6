import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '#web/config/paths';

/** Where 'Ask a dentist to review' is: on a photo or X-ray, and on a Dental AI result. */
export function WhereToAsk({ lead = '' }: { lead?: string }) {
  return (
    <Text>
      {lead}Choose ‘Ask a dentist to review’ on{' '}
      <Anchor component={Link} to={paths.oralPhotos}>
        a photo or X-ray
      </Anchor>{' '}
      or on{' '}
      <Anchor component={Link} to={paths.dentalAi}>
        a Dental AI result
      </Anchor>
      .
    </Text>
  );
}
