import { useState, type SyntheticEvent } from 'react';
import { Alert, Anchor, Button, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { reviewQuestionMaxLength } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { LoadFailed } from '#web/components/load-failed';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useDocumentTitle } from '#web/lib/document-title';
import { useAskReview, useReviewSubject, useReviews } from './api/reviews';
import { ReviewUses } from './components/review-uses';
import { WhereToAsk } from './components/where-to-ask';
import classes from './reviews.module.css';

/** 'Ask a dentist to review' (docs/product/photo-reviews.md#asking), opened from a photo or X-ray
 *  (`?photo=`) or a Dental AI result (`?dental_ai=`): the image, the question, and the reviews
 *  left on the plan; the API's refusal when none are left is shown as it says it. */
export default function AskReviewPage() {
  useDocumentTitle('Ask a dentist to review');
  const [search] = useSearchParams();
  const photo = search.get('photo');
  const dentalAi = search.get('dental_ai');
  return (
    <Stack gap="lg">
      <Anchor component={Link} to={paths.reviews}>
        All reviews
      </Anchor>
      <Title order={1}>Ask a dentist to review</Title>
      {photo !== null ? (
        <AskForm subject={{ kind: 'photo', id: photo }} />
      ) : dentalAi !== null ? (
        <AskForm subject={{ kind: 'dental_ai', id: dentalAi }} />
      ) : (
        <WhereToAsk />
      )}
    </Stack>
  );
}

function AskForm({ subject }: { subject: { kind: 'photo' | 'dental_ai'; id: string } }) {
  const navigate = useNavigate();
  const item = useReviewSubject(subject);
  const reviews = useReviews();
  const ask = useAskReview();
  const [question, setQuestion] = useState('');
  const noneLeft =
    reviews.data !== undefined && reviews.data.uses.used >= reviews.data.uses.allowed;

  const submit = (event: SyntheticEvent) => {
    event.preventDefault();
    ask.mutate(
      subject.kind === 'photo'
        ? { photos: [subject.id], question }
        : { dental_ai: subject.id, question },
      {
        onSuccess: ({ id }) => {
          void navigate(paths.review(id));
        },
      },
    );
  };
  const questionError =
    ask.error instanceof ApiError ? ask.error.fieldErrors.question?.[0] : undefined;

  return (
    <Stack gap="md">
      <Text>
        A dentist of your practice looks at the image and answers your question in plain words. Only
        this image is shared with the practice for the review.
      </Text>
      {item.isError && <LoadFailed error={item.error} onRetry={item.refetch} />}
      {item.data && (
        <Group gap="sm" wrap="nowrap">
          <img src={item.data.image} alt="" className={classes.thumbnail} />
          <Text fw={600}>{item.data.name}</Text>
        </Group>
      )}
      {reviews.isError && <LoadFailed error={reviews.error} onRetry={reviews.refetch} />}
      {reviews.data && <ReviewUses uses={reviews.data.uses} />}
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Textarea
            label="Your question"
            description="For example: is this dark spot a cavity?"
            autosize
            minRows={3}
            maxLength={reviewQuestionMaxLength}
            value={question}
            onChange={(event) => {
              setQuestion(event.currentTarget.value);
            }}
            error={questionError}
          />
          {ask.isError && questionError === undefined && (
            <Alert color="red" variant="outline">
              {errorMessage(ask.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={ask.isPending} disabled={noneLeft}>
              Ask a dentist
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
