import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import {
  coloursByFirstAppearance,
  dentalAiDisclaimer,
  dentalAiTypeLabels,
  type DentalAiResult,
} from '@dental/contracts';
import dayjs from 'dayjs';
import { DatasetCredit } from './dataset-credit';
import { DetectionImage } from './detection-image';
import { FindingsLegend } from './findings-legend';

export interface DetectionResultProps {
  result: DentalAiResult;
  onTryAnother: () => void;
}

/** The Dental AI result view (docs/product/dental-ai.md#result): the image with its boxes, the
 *  legend, the disclaimer. */
export function DetectionResult({ result, onTryAnother }: DetectionResultProps) {
  const boxes = result.detection_selection;
  const colours = coloursByFirstAppearance(boxes.map((box) => box.crop_prediction));
  const found = boxes.length === 1 ? '1 marked finding' : `${boxes.length} marked findings`;
  return (
    <Stack gap="md">
      <Title order={1}>{dentalAiTypeLabels[result.dental_ai].resultTitle}</Title>
      <DetectionImage
        src={result.image_url}
        alt={`The uploaded image with ${found}`}
        width={result.image_width}
        height={result.image_height}
        boxes={boxes}
        colours={colours}
      />
      {boxes.length === 0 ? (
        <Text>No findings: the model marked nothing on this image.</Text>
      ) : (
        <FindingsLegend boxes={boxes} colours={colours} />
      )}
      <Text size="sm">
        {`Detected on ${dayjs(result.created_at).format('YYYY-MM-DD HH:mm')} by the model ${result.model_name} (version ${result.model_version}).`}
      </Text>
      <DatasetCredit modelName={result.model_name} />
      <Paper withBorder p="sm">
        <Text>{dentalAiDisclaimer}</Text>
      </Paper>
      <Group>
        <Button onClick={onTryAnother}>Try Another Detection</Button>
      </Group>
    </Stack>
  );
}
