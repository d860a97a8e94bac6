import { useState, type ReactNode } from 'react';
import { Button, Group, Paper, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import {
  coloursByFirstAppearance,
  dentalAiDisclaimer,
  dentalAiTypeLabels,
  type DentalAiResult,
} from '@dental/contracts';
import dayjs from 'dayjs';
import {
  certaintySentence,
  lookedFor,
  measuredSentences,
  markedAreasSentence,
  nextStepsWhenMarked,
  nothingMarked,
  readAsSentence,
} from '../result-wording';
import { DatasetCredit } from './dataset-credit';
import { DetectionImage } from '#web/components/detection-image';
import { markedAreas } from '#web/components/dental-ai-result-summary';
import { ImageViewer } from '#web/components/image-viewer/image-viewer';
import { FindingsLegend } from './findings-legend';
import { SourcePhoto } from './source-photo';
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
  const [viewing, setViewing] = useState(false);
  const title = dentalAiTypeLabels[result.dental_ai].resultTitle;
  const alt = `The ${result.oral_photo_id === null ? 'uploaded' : 'stored'} image with ${markedAreas(boxes.length)}`;
  const figures = result.model_figures;
  return (
    <Stack gap="md">
      <Title order={1}>{title}</Title>
      {/* The image opens in the viewer, boxes and all, to be zoomed like any photo: a panoramic
          X-ray is about 330 px wide on a phone. */}
      <UnstyledButton
        onClick={() => {
          setViewing(true);
        }}
        aria-label={`Zoom: ${alt}`}
        w="fit-content"
        maw="100%"
      >
        <DetectionImage
          src={result.image_url}
          alt={alt}
          width={result.image_width}
          height={result.image_height}
          boxes={boxes}
          colours={colours}
        />
      </UnstyledButton>
      <Group gap="xs">
        <Button
          variant="default"
          size="xs"
          onClick={() => {
            setViewing(true);
          }}
        >
          Zoom
        </Button>
        {result.oral_photo_id !== null && <SourcePhoto photoId={result.oral_photo_id} />}
      </Group>
      <ImageViewer
        items={[
          {
            kind: 'detection',
            src: result.image_url,
            title: `${title}: ${markedAreas(boxes.length)}`,
            width: result.image_width,
            height: result.image_height,
            boxes,
            colours,
          },
        ]}
        index={viewing ? 0 : null}
        onIndexChange={() => undefined}
        onClose={() => {
          setViewing(false);
        }}
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
            {figures !== null && (
              <Text size="sm">{certaintySentence(figures.likely_from, figures.confidence)}</Text>
            )}
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
          {figures?.classes !== undefined &&
            measuredSentences(figures).map((sentence) => (
              <Text size="sm" key={sentence}>
                {sentence}
              </Text>
            ))}
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
