import { Alert, Stack, Switch, Text, Title } from '@mantine/core';
import { errorMessage } from '#web/lib/api-client';
import { useSetTrainingConsent, useTrainingConsent } from '../api/reviews';
import { reviewDay } from './review-dates';

/** The consent that reviewed images may improve the Dental AI models
 *  (docs/product/photo-reviews.md#helping-the-models-learn): off unless the member turns it on,
 *  and they may turn it off at any time. */
export function TrainingConsent() {
  const consent = useTrainingConsent();
  const setConsent = useSetTrainingConsent();
  const grantedAt = consent.data?.granted_at ?? null;
  return (
    <Stack gap="xs" component="section" aria-labelledby="training-consent-title">
      <Title order={2} size="h3" id="training-consent-title">
        Help improve the Dental AI
      </Title>
      <Text>
        If you allow it, the images of your answered reviews and the areas the dentist confirmed or
        drew on them may be used to teach the Dental AI to mark such areas better. Your name, your
        question and the dentist’s report are never used. It is off unless you turn it on; if you
        turn it off, your images are left out of everything made afterwards.
      </Text>
      <Switch
        label="Let my reviewed images help improve the Dental AI"
        checked={grantedAt !== null}
        disabled={consent.isPending || setConsent.isPending}
        onChange={(event) => {
          setConsent.mutate(event.currentTarget.checked);
        }}
      />
      {grantedAt !== null && <Text size="sm">Allowed since {reviewDay(grantedAt)}.</Text>}
      {(consent.isError || setConsent.isError) && (
        <Alert color="red" variant="outline">
          {errorMessage(consent.error ?? setConsent.error)}
        </Alert>
      )}
    </Stack>
  );
}
