import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { dentalAiDisclaimer } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { StatusPage } from '#web/components/status-page';
import { ApiError } from '#web/lib/api-client';
import { useDocumentTitle } from '#web/lib/document-title';
import { useReview } from './api/reviews';
import { ReviewAnswer } from './components/review-answer';
import { reviewDay } from './components/review-dates';
import classes from './reviews.module.css';

/** A dentist's review (docs/product/photo-reviews.md#screens), where the answer's notice links:
 *  the question and, once answered, the report in plain words (text, never HTML), the images
 *  with the dentist's boxes, the AI's marks not confirmed, who answered and when. */
export default function ReviewPage() {
  const { reviewId = '' } = useParams();
  const review = useReview(reviewId);
  const notFound = review.error instanceof ApiError && review.error.status === 404;
  useDocumentTitle(notFound ? 'Review not found' : 'Dentist review');

  if (review.isPending) return <PageSpinner />;
  if (notFound) {
    return <StatusPage title="Review not found">There is no review at this address.</StatusPage>;
  }
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={paths.reviews}>
        All reviews
      </Anchor>
      {review.isError && <LoadFailed error={review.error} onRetry={review.refetch} />}
      {review.data && (
        <>
          <Title order={1}>Dentist review</Title>
          <Stack gap="xs" component="section" aria-labelledby="review-question">
            <Title order={2} size="h3" id="review-question">
              Your question
            </Title>
            <Text size="sm">Asked {reviewDay(review.data.created_at)}</Text>
            {/* Plain text: rendered as text, never as HTML. */}
            <Text className={classes.text}>{review.data.question}</Text>
          </Stack>
          {review.data.status === 'waiting' ? (
            <Text>
              A dentist of your practice has not answered yet. We will e-mail you when they do.
            </Text>
          ) : (
            <Stack gap="md" component="section" aria-labelledby="review-report">
              <Title order={2} size="h3" id="review-report">
                The dentist’s answer
              </Title>
              <Text size="sm">
                {review.data.reviewer?.name ?? 'A dentist'}
                {review.data.answered_at !== null && `, ${reviewDay(review.data.answered_at)}`}
              </Text>
              <Text className={classes.text}>{review.data.report}</Text>
              <ReviewAnswer review={review.data} />
              {review.data.dental_ai !== null && (
                <Paper withBorder p="sm">
                  <Text size="sm">{dentalAiDisclaimer}</Text>
                </Paper>
              )}
            </Stack>
          )}
        </>
      )}
    </Stack>
  );
}
