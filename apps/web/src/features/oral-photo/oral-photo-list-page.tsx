import { useState } from 'react';
import {
  Accordion,
  Alert,
  Button,
  Group,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { Link } from 'react-router';
import type { PhotoTypeFilter } from '@dental/contracts';
import {
  DateRangeFilter,
  monthAroundToday,
  type DateRange,
} from '../../components/date-range-filter';
import { PageSpinner } from '../../components/page-spinner';
import { errorMessage } from '../../lib/api-client';
import { useDocumentTitle } from '../../lib/document-title';
import { useOralPhotos } from './api/get-oral-photos';
import { PhotoCard } from './components/photo-card';

export const oralPhotoTitle = 'X-rays and Photos Storage';

const typeChoices: { label: string; value: PhotoTypeFilter }[] = [
  { label: 'All', value: 'all' },
  { label: 'Photos', value: 'Photo' },
  { label: 'X-rays', value: 'X-ray' },
];

/** X-rays and Photos Storage (SPEC §2): type and date filters, expandable cards, one open. */
export default function OralPhotoListPage() {
  useDocumentTitle(oralPhotoTitle);
  const [photoType, setPhotoType] = useState<PhotoTypeFilter>('all');
  const [range, setRange] = useState<DateRange>(() => monthAroundToday());
  const [openedId, setOpenedId] = useState<string | null>(null);
  const rangeValid =
    range.startDate === '' || range.endDate === '' || range.startDate <= range.endDate;
  const photos = useOralPhotos({ photoType, ...range }, rangeValid);

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{oralPhotoTitle}</Title>
        <Button component={Link} to="add">
          +Add
        </Button>
      </Group>
      <SegmentedControl
        aria-label="Photo type"
        data={typeChoices}
        value={photoType}
        onChange={(value) => {
          setPhotoType(value);
        }}
        fullWidth
      />
      <DateRangeFilter value={range} onChange={setRange} />
      {photos.isPending && rangeValid && <PageSpinner />}
      {photos.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(photos.error)}
        </Alert>
      )}
      {photos.data?.length === 0 && <Text c="dimmed">No photos in this period.</Text>}
      {photos.data !== undefined && photos.data.length > 0 && (
        <Accordion variant="separated" value={openedId} onChange={setOpenedId}>
          {photos.data.map((photo) => (
            <PhotoCard key={photo.id} photo={photo} opened={openedId === photo.id} />
          ))}
        </Accordion>
      )}
    </Stack>
  );
}
