import { Paper, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { dentalAiDisclaimer } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { useReview } from './api/reviews';
import { ReviewAnswer } from './components/review-answer';
import { reviewDay } from './components/review-dates';
import { ReviewShell } from './components/review-shell';
import classes from './reviews.module.css';

/** A dentist's review (docs/product/photo-reviews.md#screens), where the answer's notice links:
 *  the question and, once answered, the report in plain words (text, never HTML), the images
 *  with the dentist's boxes, the AI's marks not confirmed, who answered and when. */
export default function ReviewPage() {
  const { reviewId = '' } = useParams();
  return (
    <ReviewShell review={useReview(reviewId)} listPath={paths.reviews}>
      {(review) => (
        <>
          <Title order={1}>Dentist review</Title>
          <Stack gap="xs" component="section" aria-labelledby="review-question">
            <Title order={2} size="h3" id="review-question">
              Your question
            </Title>
            <Text size="sm">Asked {reviewDay(review.created_at)}</Text>
            {/* Plain text: rendered as text, never as HTML. */}
            <Text className={classes.text}>{review.question}</Text>
          </Stack>
          {review.status === 'waiting' ? (
            <Text>
              A dentist of your practice has not answered yet. We will e-mail you when they do.
            </Text>
          ) : (
            <Stack gap="md" component="section" aria-labelledby="review-report">
              <Title order={2} size="h3" id="review-report">
                The dentist’s answer
              </Title>
              <ReviewAnswer review={review} />
              {review.dental_ai !== null && (
                <Paper withBorder p="sm">
                  <Text size="sm">{dentalAiDisclaimer}</Text>
                </Paper>
              )}
            </Stack>
          )}
        </>
      )}
    </ReviewShell>
  );
}
