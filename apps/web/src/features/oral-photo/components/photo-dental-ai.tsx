import { Alert, Button, Stack, Text } from '@mantine/core';
import { useNavigate } from 'react-router';
import type { OralPhoto } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { errorMessage } from '#web/lib/api-client';
import { useReadOnlyRecord } from '#web/lib/viewed-record';
import { useDentalAiResults, useRunDentalAi } from '#web/lib/dental-ai-runs';
import { ResultSummary } from '#web/components/dental-ai-result-summary';

/**
 * Dental AI inside the record (docs/product/dental-ai.md#on-a-stored-image): the results run on
 * this photo, and 'Check for caries', which runs on the stored image with no second upload and
 * opens the result.
 */
export function PhotoDentalAi({
  photo,
  label,
  regionName,
}: {
  photo: OralPhoto;
  label: string;
  /** The section's name where several are on one screen (a set's views); else 'Dental AI'. */
  regionName?: string;
}) {
  const readOnly = useReadOnlyRecord();
  const results = useDentalAiResults(photo.id);
  const run = useRunDentalAi();
  const navigate = useNavigate();
  const titleId = `dental-ai-of-${photo.id}`;
  return (
    <Stack
      gap="xs"
      component="section"
      {...(regionName === undefined
        ? { 'aria-labelledby': titleId }
        : { 'aria-label': regionName })}
    >
      <Text fw={600} id={titleId}>
        Dental AI
      </Text>
      {results.data?.length === 0 && <Text size="sm">Not checked by Dental AI yet.</Text>}
      {results.data && results.data.length > 0 && (
        <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {results.data.map((result) => (
            <li key={result.id}>
              <ResultSummary result={result} />
            </li>
          ))}
        </Stack>
      )}
      {!readOnly && (
        <Button
          variant="default"
          size="xs"
          w="fit-content"
          loading={run.isPending}
          aria-label={`Check for caries: ${label}`}
          onClick={() => {
            run.mutate(
              { dental_ai: 'caries', oral_photo_id: photo.id },
              {
                onSuccess: (result) => {
                  void navigate(paths.dentalAiResult(result.id));
                },
              },
            );
          }}
        >
          Check for caries
        </Button>
      )}
      {run.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(run.error)}
        </Alert>
      )}
    </Stack>
  );
}
