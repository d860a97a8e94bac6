import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { Review } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { LoadFailed } from '#web/components/load-failed';
import { useDocumentTitle } from '#web/lib/document-title';
import { useReviews } from './api/reviews';
import { reviewDay } from './components/review-dates';
import { ReviewUses } from './components/review-uses';
import { TrainingConsent } from './components/training-consent';
import { WhereToAsk } from './components/where-to-ask';
import classes from './reviews.module.css';

/** Dentist reviews (docs/product/photo-reviews.md#screens): the member's questions waiting for a
 *  dentist and those answered, the reviews left on the plan, and the consent to learn from them. */
export default function ReviewsPage() {
  useDocumentTitle('Dentist reviews');
  const reviews = useReviews();
  const results = reviews.data?.results ?? [];
  const waiting = results.filter((review) => review.status === 'waiting');
  const answered = results.filter((review) => review.status === 'answered');
  return (
    <Stack gap="lg">
      <Title order={1}>Dentist reviews</Title>
      <WhereToAsk lead="Ask a dentist of your practice about your photos, X-rays or a Dental AI result. " />
      {reviews.isPending && <Text>Loading your reviews…</Text>}
      {reviews.isError && <LoadFailed error={reviews.error} onRetry={reviews.refetch} />}
      {reviews.data && (
        <>
          <ReviewUses uses={reviews.data.uses} />
          <ReviewSection title="Waiting for a dentist" reviews={waiting} empty="None waiting." />
          <ReviewSection title="Answered" reviews={answered} empty="None answered yet." />
        </>
      )}
      <TrainingConsent />
    </Stack>
  );
}

function ReviewSection({
  title,
  reviews,
  empty,
}: {
  title: string;
  reviews: Review[];
  empty: string;
}) {
  return (
    <Stack gap="sm" component="section" aria-label={title}>
      <Title order={2} size="h3">
        {title}
      </Title>
      {reviews.length === 0 ? (
        <Text>{empty}</Text>
      ) : (
        <Stack component="ul" gap="sm" className={classes.list}>
          {reviews.map((review) => (
            <li key={review.id} className={classes.item}>
              <Anchor
                component={Link}
                to={paths.review(review.id)}
                lineClamp={2}
                className={classes.text}
              >
                {review.question}
              </Anchor>
              <Text size="sm">
                Asked {reviewDay(review.created_at)}
                {review.answered_at !== null &&
                  ` · answered ${reviewDay(review.answered_at)}${review.reviewer ? ` by ${review.reviewer.name}` : ''}`}
              </Text>
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
