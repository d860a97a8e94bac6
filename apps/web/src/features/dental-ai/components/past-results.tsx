import { Alert, Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import { dentalAiTypeLabels } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { DeleteButton } from '#web/components/delete-button';
import { errorMessage } from '#web/lib/api-client';
import { useReadOnlyRecord } from '#web/lib/viewed-record';
import { useDeleteDentalAiResult } from '../api/delete-dental-ai-result';
import { useDentalAiResults } from '../api/get-dental-ai-results';
import { markedAreas } from '../result-wording';

/** 'Your past results' under the form: each stored result with its date and count of marked
 *  areas, to open again or delete (docs/decisions/dental-ai-past-results.md). */
export function PastResults() {
  // Another member's results, viewed read-only, are not 'yours' (docs/product/proxy-access.md).
  const readOnly = useReadOnlyRecord();
  const results = useDentalAiResults();
  const deletion = useDeleteDentalAiResult();
  return (
    <Stack gap="sm" component="section" aria-labelledby="past-results">
      <Title order={2} id="past-results">
        {readOnly ? 'Past results' : 'Your past results'}
      </Title>
      {results.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(results.error)}
        </Alert>
      )}
      {results.data?.length === 0 && <Text>You have no stored results yet.</Text>}
      {results.data && results.data.length > 0 && (
        <Stack
          gap="xs"
          component="ul"
          aria-label="Past results"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
        >
          {results.data.map((result) => {
            const title = dentalAiTypeLabels[result.dental_ai].resultTitle;
            const when = dayjs(result.created_at).format('YYYY-MM-DD HH:mm');
            return (
              <Paper component="li" withBorder p="sm" key={result.id}>
                <Group justify="space-between" gap="xs">
                  <Stack gap={0}>
                    <Anchor component={Link} to={paths.dentalAiResult(result.id)} fw={600}>
                      {`${title} of ${when}`}
                    </Anchor>
                    <Text size="sm">{markedAreas(result.detection_selection.length)}</Text>
                  </Stack>
                  <DeleteButton
                    deletion={deletion}
                    id={result.id}
                    title="Delete result"
                    question={`Delete the ${title} of ${when} and its image? The detection it used stays counted for this year.`}
                  />
                </Group>
              </Paper>
            );
          })}
        </Stack>
      )}
    </Stack>
  );
}
