import { Alert, Checkbox, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { DeleteButton } from '#web/components/delete-button';
import { ShareButton, ShareSelectionBar, useShareSelection } from '#web/components/share-selection';
import { errorMessage } from '#web/lib/api-client';
import { bottomBarRoom } from '#web/lib/list-pages';
import { useReadOnlyRecord } from '#web/lib/viewed-record';
import { useDeleteDentalAiResult } from '../api/delete-dental-ai-result';
import { useDentalAiResults } from '#web/lib/dental-ai-runs';
import { ResultSummary, resultName } from '#web/components/dental-ai-result-summary';

/** 'Your past results' under the form: each stored result with its date and count of marked
 *  areas, to open again, delete or share with a dentist (docs/decisions/dental-ai-past-results.md,
 *  docs/product/sharing.md). */
export function PastResults() {
  // Another member's results, viewed read-only, are not 'yours' (docs/product/proxy-access.md).
  const readOnly = useReadOnlyRecord();
  const results = useDentalAiResults();
  const deletion = useDeleteDentalAiResult();
  const sharing = useShareSelection();
  const hasResults = results.data !== undefined && results.data.length > 0;
  return (
    <Stack gap="sm" component="section" aria-labelledby="past-results">
      <Group justify="space-between" gap="xs">
        <Title order={2} id="past-results">
          {readOnly ? 'Past results' : 'Your past results'}
        </Title>
        {hasResults && <ShareButton selection={sharing} />}
      </Group>
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
          // The last result stays clear of the bar while choosing what to share.
          mb={sharing.choosing ? bottomBarRoom : 0}
          style={{ listStyle: 'none' }}
        >
          {results.data.map((result) => {
            return (
              <Paper component="li" withBorder p="sm" key={result.id}>
                <Group justify="space-between" gap="xs">
                  <ResultSummary result={result} />
                  {sharing.choosing ? (
                    <Checkbox
                      label="Share"
                      aria-label={`Share ${resultName(result)}`}
                      checked={sharing.isChosen(result.id)}
                      onChange={(event) => {
                        sharing.choose(result.id, event.currentTarget.checked);
                      }}
                    />
                  ) : (
                    <DeleteButton
                      deletion={deletion}
                      id={result.id}
                      title="Delete result"
                      question={`Delete the ${resultName(result)} and its image? The detection it used stays counted for this year.`}
                    />
                  )}
                </Group>
              </Paper>
            );
          })}
        </Stack>
      )}
      <ShareSelectionBar
        selection={sharing}
        kind="dental_ai"
        noun={(count) => (count === 1 ? '1 Dental AI result' : `${count} Dental AI results`)}
      />
    </Stack>
  );
}
