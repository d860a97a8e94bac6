import { useId, useState, type ReactNode } from 'react';
import { Button, Group, Paper, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import {
  coloursByFirstAppearance,
  dentalAiDisclaimer,
  dentalAiTypeLabels,
  lookedFor,
  measuredSentences,
  tierSentence,
  markedAreasSentence,
  nextStepsWhenMarked,
  nothingMarked,
  readAsSentence,
  type DentalAiResult,
} from '@dental/contracts';
import dayjs from 'dayjs';
import { DatasetCredit } from './dataset-credit';
import { DetectionImage } from './detection-image';
import { markedAreas, resultName } from './dental-ai-result-summary';
import { ImageViewer } from './image-viewer/image-viewer';
import { FindingsLegend } from './findings-legend';
import classes from './dental-ai-findings.module.css';

export interface DentalAiFindingsProps {
  result: DentalAiResult;
  /** Beside the Zoom button (the member's result page links the photo it ran on). */
  beside?: ReactNode;
}

/** A Dental AI result's image with its boxes, what it means in plain words, the disclaimer and
 *  the model's details under 'About this result' (docs/decisions/dental-ai-plain-results.md):
 *  the member's result page and a share link's page show it alike. */
export function DentalAiFindings({ result, beside }: DentalAiFindingsProps) {
  const boxes = result.detection_selection;
  const colours = coloursByFirstAppearance(boxes.map((box) => box.crop_prediction));
  const [viewing, setViewing] = useState(false);
  const title = dentalAiTypeLabels[result.dental_ai].resultTitle;
  const alt = `The ${result.oral_photo_id === null ? 'uploaded' : 'stored'} image with ${markedAreas(boxes.length)}`;
  const figures = result.model_figures;
  return (
    <>
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
        {beside}
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
            {figures !== null &&
              Object.entries(figures.classes).map(([name, point]) => (
                <Text size="sm" key={name}>
                  {tierSentence(point)}
                </Text>
              ))}
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
    </>
  );
}

/** Results someone else reads with the member's words: a share link's recipient, or the doctor a
 *  booking attached them for. A section under a heading of `order`, each result an article. */
export function DentalAiResults({
  results,
  heading,
  order,
}: {
  results: readonly DentalAiResult[];
  heading: string;
  order: 2 | 3 | 4;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <Title order={order} size={order === 2 ? 'h3' : 'h4'} id={headingId} mb="sm">
        {heading}
      </Title>
      <Stack gap="sm">
        {results.map((result) => (
          <Paper
            withBorder
            p="sm"
            key={result.id}
            component="article"
            aria-label={resultName(result)}
          >
            <Stack gap="sm">
              <Title order={(order + 1) as 3 | 4 | 5} size={order === 2 ? 'h4' : 'h5'}>
                {resultName(result)}
              </Title>
              <DentalAiFindings result={result} />
            </Stack>
          </Paper>
        ))}
      </Stack>
    </section>
  );
}
