import { useState } from 'react';
import type { PhotoTypeFilter } from '@dental/contracts';
import { paths } from '#web/app/paths';
import { DatedListPage } from '#web/components/dated-list-page';
import {
  isDateRangeValid,
  monthAroundToday,
  type DateRange,
} from '#web/components/date-range-filter';
import { useOralPhotos } from './api/get-oral-photos';
import { PhotoCard } from './components/photo-card';

export const oralPhotoTitle = 'X-rays and Photos Storage';

const typeChoices: { label: string; value: PhotoTypeFilter }[] = [
  { label: 'All', value: 'all' },
  { label: 'Photos', value: 'Photo' },
  { label: 'X-rays', value: 'X-ray' },
];

/** X-rays and Photos Storage (docs/product/records.md#x-rays-and-photos): type and date filters,
 *  expandable cards, one open. */
export default function OralPhotoListPage() {
  const [photoType, setPhotoType] = useState<PhotoTypeFilter>('all');
  const [range, setRange] = useState<DateRange>(() => monthAroundToday());
  const photos = useOralPhotos({ photoType, ...range }, isDateRangeValid(range));

  return (
    <DatedListPage
      title={oralPhotoTitle}
      addPath={paths.oralPhotoAdd}
      choice={{ label: 'Photo type', data: typeChoices, value: photoType, onChange: setPhotoType }}
      range={range}
      onRangeChange={setRange}
      entries={photos}
      emptyText="No photos in this period."
      expandable
      renderEntry={(photo, opened) => <PhotoCard photo={photo} opened={opened} />}
    />
  );
}
