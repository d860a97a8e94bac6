import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import { dentalAiTypeLabels, type DentalAiResult } from '@dental/contracts';
import { paths } from '../config/paths';

/** '1 area marked' / '3 areas marked': the count a result card and the result page share. */
export const markedAreas = (count: number) =>
  count === 1 ? '1 area marked' : `${String(count)} areas marked`;

/** 'Caries Result of 2026-11-20 10:15': how a stored result is named in lists. */
export const resultName = (result: DentalAiResult) =>
  `${dentalAiTypeLabels[result.dental_ai].resultTitle} of ${dayjs(result.created_at).format('YYYY-MM-DD HH:mm')}`;

/** A stored Dental AI result in a list, opening it, with its count of marked areas: the past
 *  results, and the results run on a stored photo (its card). */
export function ResultSummary({ result }: { result: DentalAiResult }) {
  return (
    <Stack gap={0}>
      <Anchor component={Link} to={paths.dentalAiResult(result.id)} fw={600}>
        {resultName(result)}
      </Anchor>
      <Text size="sm">{markedAreas(result.detection_selection.length)}</Text>
    </Stack>
  );
}
