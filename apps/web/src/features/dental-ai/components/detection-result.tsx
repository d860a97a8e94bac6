import type { ReactNode } from 'react';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import {
  coloursByFirstAppearance,
  dentalAiDisclaimer,
  dentalAiTypeLabels,
  type DentalAiResult,
} from '@dental/contracts';
import dayjs from 'dayjs';
import {
  lookedFor,
  markedAreas,
  markedAreasSentence,
  nextStepsWhenMarked,
  nothingMarked,
  readAsSentence,
} from '../result-wording';
import { DatasetCredit } from './dataset-credit';
import { DetectionImage } from '#web/components/detection-image';
import { FindingsLegend } from './findings-legend';
import classes from './detection-result.module.css';

export interface DetectionResultProps {
  result: DentalAiResult;
  onTryAnother: () => void;
  /** More actions beside 'Try Another Detection' (the result page's 'Ask a dentist to review'). */
  actions?: ReactNode;
}

/** The Dental AI result view (docs/product/dental-ai.md#result): the image with its boxes, what it
 *  means in plain words, the disclaimer; the model's details under 'About this result'
 *  (docs/decisions/dental-ai-plain-results.md). */
export function DetectionResult({ result, onTryAnother, actions }: DetectionResultProps) {
  const boxes = result.detection_selection;
  const colours = coloursByFirstAppearance(boxes.map((box) => box.crop_prediction));
  return (
    <Stack gap="md">
      <Title order={1}>{dentalAiTypeLabels[result.dental_ai].resultTitle}</Title>
      <DetectionImage
        src={result.image_url}
        alt={`The uploaded image with ${markedAreas(boxes.length)}`}
        width={result.image_width}
        height={result.image_height}
        boxes={boxes}
        colours={colours}
      />
      <Stack gap="xs">
        <Text>{lookedFor[result.dental_ai]}</Text>
        <Text>{readAsSentence(result.image_kind, result.image_kind_source)}</Text>
        {boxes.length === 0 ? (
          <Text fw={700}>{nothingMarked}</Text>
        ) : (
          <>
            <Text fw={700}>{markedAreasSentence(boxes.length)}</Text>
            <FindingsLegend boxes={boxes} colours={colours} />
            <Text>{nextStepsWhenMarked}</Text>
          </>
        )}
      </Stack>
      <Paper withBorder p="sm">
        <Text>{dentalAiDisclaimer}</Text>
      </Paper>
      <details className={classes.about}>
        <summary>About this result</summary>
        <Stack gap="xs" mt="xs">
          <Text size="sm">
            {`Detected on ${dayjs(result.created_at).format('YYYY-MM-DD HH:mm')} by the model ${result.model_name} (version ${result.model_version}).`}
          </Text>
          <DatasetCredit modelName={result.model_name} />
        </Stack>
      </details>
      <Group>
        <Button onClick={onTryAnother}>Try Another Detection</Button>
        {actions}
      </Group>
    </Stack>
  );
}
