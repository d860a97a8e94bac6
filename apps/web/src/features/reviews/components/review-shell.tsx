import type { ReactNode } from 'react';
import { Anchor, Stack } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { StatusPage } from '#web/components/status-page';
import { ApiError } from '#web/lib/api-client';
import { useDocumentTitle } from '#web/lib/document-title';

/** A review's screen around what it shows, the member's and the console's: a spinner while it
 *  loads, 'Review not found' for another's or a missing one, the link back to the list, and a
 *  failure with a retry. */
export function ReviewShell<T>({
  review,
  listPath,
  children,
}: {
  review: UseQueryResult<T>;
  listPath: string;
  children: (review: T) => ReactNode;
}) {
  const notFound = review.error instanceof ApiError && review.error.status === 404;
  useDocumentTitle(notFound ? 'Review not found' : 'Dentist review');
  if (review.isPending) return <PageSpinner />;
  if (notFound) {
    return <StatusPage title="Review not found">There is no review at this address.</StatusPage>;
  }
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={listPath}>
        All reviews
      </Anchor>
      {review.isError && <LoadFailed error={review.error} onRetry={review.refetch} />}
      {review.data !== undefined && children(review.data)}
    </Stack>
  );
}
