import type { ReactNode } from 'react';
import { Button, Group, Stack, Title } from '@mantine/core';
import { dentalAiTypeLabels, type DentalAiResult } from '@dental/contracts';
import { DentalAiFindings } from '#web/components/dental-ai-findings';
import { SourcePhoto } from './source-photo';

export interface DetectionResultProps {
  result: DentalAiResult;
  onTryAnother: () => void;
  /** More actions beside 'Try Another Detection' (the result page's 'Ask a dentist to review'). */
  actions?: ReactNode;
}

/** The Dental AI result view (docs/product/dental-ai.md#result): the result's findings, the photo
 *  it ran on, and the way to another detection. */
export function DetectionResult({ result, onTryAnother, actions }: DetectionResultProps) {
  return (
    <Stack gap="md">
      <Title order={1}>{dentalAiTypeLabels[result.dental_ai].resultTitle}</Title>
      <DentalAiFindings
        result={result}
        beside={result.oral_photo_id !== null && <SourcePhoto photoId={result.oral_photo_id} />}
      />
      <Group>
        <Button onClick={onTryAnother}>Try Another Detection</Button>
        {actions}
      </Group>
    </Stack>
  );
}
