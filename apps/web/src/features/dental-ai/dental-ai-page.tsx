import { Alert, Anchor, Stack, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router';
import { paths } from '#web/config/paths';
import { PageSpinner } from '#web/components/page-spinner';
import { errorMessage } from '#web/lib/api-client';
import { useDocumentTitle } from '#web/lib/document-title';
import { useDentalAiStatus } from './api/get-dental-ai-status';
import { useRunDentalAi } from '#web/lib/dental-ai-runs';
import { DetectionForm } from './components/detection-form';
import { PastResults } from './components/past-results';
import { useReadOnlyRecord } from '#web/lib/viewed-record';

/** Dental AI (docs/product/dental-ai.md#result): the form; a finished detection opens its stored
 *  result, so a reload keeps it. The member's past results follow the form. */
export default function DentalAiPage() {
  useDocumentTitle('Dental AI');
  const navigate = useNavigate();
  const status = useDentalAiStatus();
  const run = useRunDentalAi();
  // Another member's record is only looked at: no detection runs on it.
  const readOnly = useReadOnlyRecord();
  return (
    <Stack gap="md">
      <Title order={1}>Dental AI</Title>
      {!readOnly && (
        <Anchor component={Link} to={paths.reviews}>
          Your questions to a dentist (dentist reviews)
        </Anchor>
      )}
      {status.isPending && <PageSpinner />}
      {status.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(status.error)}
        </Alert>
      )}
      {status.data && !readOnly && (
        <DetectionForm
          status={status.data}
          onStart={async (request) => {
            const result = await run.mutateAsync(request);
            await navigate(paths.dentalAiResult(result.id));
          }}
        />
      )}
      <PastResults />
    </Stack>
  );
}
