import { Alert, Button, Stack, Title } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { dentalAiTypeLabels } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { PageSpinner } from '#web/components/page-spinner';
import { StatusPage } from '#web/components/status-page';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { useDocumentTitle } from '#web/lib/document-title';
import { useReadOnlyRecord } from '#web/lib/viewed-record';
import { useDentalAiResult } from './api/get-dental-ai-result';
import { DetectionResult } from './components/detection-result';

const notFoundTitle = 'Result not found';

/** A stored Dental AI result by its id (docs/decisions/dental-ai-screens.md). */
export default function DentalAiResultPage() {
  const { resultId = '' } = useParams();
  const navigate = useNavigate();
  const result = useDentalAiResult(resultId);
  // Reviews are the member's own: not asked on a record they only look at.
  const readOnly = useReadOnlyRecord();
  const notFound = result.error instanceof ApiError && result.error.status === 404;
  const title = result.data
    ? dentalAiTypeLabels[result.data.dental_ai].resultTitle
    : notFound
      ? notFoundTitle
      : 'Dental AI Result';
  useDocumentTitle(title);

  if (result.isPending) return <PageSpinner />;
  if (notFound) {
    return (
      <StatusPage title={notFoundTitle}>There is no Dental AI result at this address.</StatusPage>
    );
  }
  if (result.isError) {
    return (
      <Stack gap="md">
        <Title order={1}>{title}</Title>
        <Alert color="red" variant="outline">
          {errorMessage(result.error)}
        </Alert>
      </Stack>
    );
  }
  return (
    <DetectionResult
      result={result.data}
      onTryAnother={() => {
        void navigate(paths.dentalAi);
      }}
      actions={
        !readOnly && (
          <Button
            component={Link}
            to={paths.reviewAsk({ dental_ai: result.data.id })}
            variant="default"
          >
            Ask a dentist to review
          </Button>
        )
      }
    />
  );
}
