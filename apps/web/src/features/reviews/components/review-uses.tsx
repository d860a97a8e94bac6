import { Alert, Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { ReviewList } from '@dental/contracts';
import { paths } from '#web/config/paths';

/** How many reviews the plan has left this membership year, or a clear word that none are. */
export function ReviewUses({ uses }: { uses: ReviewList['uses'] }) {
  const left = Math.max(uses.allowed - uses.used, 0);
  if (left === 0) {
    return (
      // No title: an outline alert's title takes the alert's colour, too light for small text.
      <Alert color="orange" variant="outline">
        <Text fw={700}>No reviews left this year</Text>
        <Text>
          You have used all {uses.allowed} of your {uses.plan} plan’s dentist reviews for this
          membership year. A higher plan allows more:{' '}
          <Anchor component={Link} to={paths.membership}>
            see the plans
          </Anchor>
          .
        </Text>
      </Alert>
    );
  }
  return (
    <Text>
      {left} of {uses.allowed} dentist {uses.allowed === 1 ? 'review' : 'reviews'} left on your{' '}
      {uses.plan} plan this membership year.
    </Text>
  );
}
