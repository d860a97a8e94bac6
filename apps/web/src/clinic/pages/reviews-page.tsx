import { Anchor, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import type { ClinicReviewList, ReviewStatus } from '@dental/contracts';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { reviewDay } from '#web/features/reviews/components/review-dates';
import { useClinicReviews } from '../api/clinic-api';
import { clinicPaths } from '../paths';
import shared from '#web/features/messages/messages.module.css';
import classes from './messages.module.css';

type ReviewSummary = ClinicReviewList['results'][number];

function ReviewRow({ review }: { review: ReviewSummary }) {
  const asked = review.dental_ai !== null ? 'a Dental AI result' : photosAsked(review.photos);
  return (
    <Paper component="li" withBorder p="sm">
      <Stack gap={4}>
        <Anchor component={Link} to={clinicPaths.review(review.id)} fw={600}>
          {review.patient.username} asks about {asked}
        </Anchor>
        {/* Plain text, never HTML; a long question is cut to two lines here. */}
        <Text size="sm" lineClamp={2} className={shared.subject}>
          {review.question}
        </Text>
        <Text size="sm">
          Asked {reviewDay(review.created_at)}
          {review.answered_at !== null &&
            ` · answered ${reviewDay(review.answered_at)} by ${review.reviewer?.name ?? 'a dentist'}`}
        </Text>
      </Stack>
    </Paper>
  );
}

function photosAsked(photos: readonly string[]): string {
  return photos.length === 1 ? 'a photo' : `${String(photos.length)} photos`;
}

/** The dentist reviews patients asked of the practice (docs/clinic.md#dentist-reviews): waiting
 *  ones oldest first, the queue the practitioners work, or those answered. */
export default function ReviewsPage() {
  useDocumentTitle('Dentist reviews');
  const [params, setParams] = useSearchParams();
  const status: ReviewStatus = params.get('status') === 'answered' ? 'answered' : 'waiting';
  const reviews = useClinicReviews(status);
  return (
    <Stack gap="md">
      <Title order={1}>Dentist reviews</Title>
      <SegmentedControl
        aria-label="Reviews to show"
        className={classes.filter}
        value={status}
        onChange={(value) => {
          setParams(value === 'answered' ? { status: 'answered' } : {});
        }}
        data={[
          { value: 'waiting', label: 'Waiting' },
          { value: 'answered', label: 'Answered' },
        ]}
      />
      {reviews.isError ? (
        <LoadFailed error={reviews.error} onRetry={reviews.refetch} />
      ) : reviews.data === undefined ? (
        <PageSpinner />
      ) : reviews.data.results.length === 0 ? (
        <Text>
          {status === 'waiting' ? 'No reviews are waiting.' : 'No reviews have been answered yet.'}
        </Text>
      ) : (
        <Stack component="ul" gap="xs" className={shared.list} aria-label="Reviews">
          {reviews.data.results.map((review) => (
            <ReviewRow key={review.id} review={review} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
