import { useState } from 'react';
import { Affix, Button, Group, Paper, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { PhotoTypeFilter } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { DatedListPage } from '#web/components/dated-list-page';
import { isDateRangeValid } from '#web/components/date-range-filter';
import { useListRange } from '#web/components/saved-entry-range';
import { ImageViewer } from '#web/components/image-viewer/image-viewer';
import { ShareButton, ShareSelectionBar, useShareSelection } from '#web/components/share-selection';
import { useOralPhotos, useOralPhotosOutsideRange } from './api/get-oral-photos';
import { LoadMore } from '#web/lib/list-pages';
import { photoLabel } from '#web/lib/photo-label';
import { useReadOnlyRecord } from '#web/lib/viewed-record';
import { CaptureSetEntry, setLedBy } from './components/capture-set-entry';
import { PhotoCard } from './components/photo-card';
import { PhotoComparison } from './components/photo-comparison';

export const oralPhotoTitle = 'X-rays and Photos Storage';

const typeChoices: { label: string; value: PhotoTypeFilter }[] = [
  { label: 'All', value: 'all' },
  { label: 'Photos', value: 'Photo' },
  { label: 'X-rays', value: 'X-ray' },
];

/** What the list holds under each type filter, for 'Load more …'. */
const typeNouns: Record<PhotoTypeFilter, string> = {
  all: 'photos and X-rays',
  Photo: 'photos',
  'X-ray': 'X-rays',
};

/** One of them, for '1 older photo is outside these dates'. */
const typeNoun: Record<PhotoTypeFilter, string> = {
  all: 'photo or X-ray',
  Photo: 'photo',
  'X-ray': 'X-ray',
};

/** X-rays and Photos Storage (docs/product/records.md#x-rays-and-photos): type and date filters,
 *  expandable cards, one open; the full-screen viewer; any two of them compared. */
export default function OralPhotoListPage() {
  const [photoType, setPhotoType] = useState<PhotoTypeFilter>('all');
  const [range, setRange] = useListRange('photos');
  const [viewed, setViewed] = useState<number | null>(null);
  const [comparedIds, setComparedIds] = useState<string[]>([]);
  const [comparing, setComparing] = useState(false);
  const sharing = useShareSelection();
  const readOnly = useReadOnlyRecord();
  const photos = useOralPhotos({ photoType, ...range }, isDateRangeValid(range));
  const outside = useOralPhotosOutsideRange({ photoType, ...range }, isDateRangeValid(range));
  const list = photos.data ?? [];
  const compared = list.filter((photo) => comparedIds.includes(photo.id));
  const [first, second] = compared;

  return (
    <>
      <DatedListPage
        title={oralPhotoTitle}
        addPath={paths.oralPhotoAdd}
        links={
          <>
            <ShareButton selection={sharing} />
            {!readOnly && (
              <Button component={Link} to={paths.oralPhotoCapture} variant="default">
                Take photos
              </Button>
            )}
            <Button component={Link} to={paths.toothChart} variant="default">
              By tooth
            </Button>
          </>
        }
        choice={{
          label: 'Photo type',
          data: typeChoices,
          value: photoType,
          onChange: setPhotoType,
        }}
        range={range}
        onRangeChange={setRange}
        entries={photos}
        emptyText="No photos in this period."
        outside={{
          count: outside,
          words: {
            one: typeNoun[photoType],
            many: typeNouns[photoType],
            before: 'older',
            after: 'newer',
          },
        }}
        expandable
        renderEntry={(photo, opened) => {
          if (photo.capture_set_id !== null) {
            const set = setLedBy(photo, list);
            return set === null ? null : <CaptureSetEntry photos={set} />;
          }
          return (
            <PhotoCard
              photo={photo}
              opened={opened}
              onView={() => {
                setViewed(list.indexOf(photo));
              }}
              compared={comparedIds.includes(photo.id)}
              canCompare={compared.length < 2}
              share={
                sharing.choosing
                  ? {
                      chosen: sharing.isChosen(photo.id),
                      onChange: (chosen) => {
                        sharing.choose(photo.id, chosen);
                      },
                    }
                  : undefined
              }
              onCompareChange={(checked) => {
                setComparedIds((ids) =>
                  checked ? [...ids, photo.id] : ids.filter((id) => id !== photo.id),
                );
              }}
            />
          );
        }}
      />
      <LoadMore
        list={photos}
        noun={typeNouns[photoType]}
        roomForBottomBar={sharing.choosing || first !== undefined}
      />
      <ImageViewer
        items={list.map((photo) => ({
          kind: 'image',
          src: photo.image_link,
          title: photoLabel(photo),
        }))}
        index={viewed}
        onIndexChange={setViewed}
        onClose={() => {
          setViewed(null);
        }}
      />
      {/* Hidden while the comparison is open: on a phone it sat over the dialog's second image. */}
      {first !== undefined && !sharing.choosing && !comparing && (
        <Affix position={{ bottom: 16, left: 16, right: 16 }}>
          {/* A landmark of its own: the bar is rendered outside the page's main region. */}
          <Paper
            component="section"
            aria-label="Photos to compare"
            shadow="md"
            p="sm"
            withBorder
            maw={640}
            mx="auto"
          >
            <Group justify="space-between" gap="xs">
              <Text size="sm">
                {second === undefined
                  ? `Pick another photo or X-ray to compare with ${first.shoot_date}.`
                  : `${first.shoot_date} and ${second.shoot_date} picked.`}
              </Text>
              <Group gap="xs">
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => {
                    setComparedIds([]);
                  }}
                >
                  Clear
                </Button>
                <Button
                  size="xs"
                  disabled={second === undefined}
                  onClick={() => {
                    setComparing(true);
                  }}
                >
                  Compare
                </Button>
              </Group>
            </Group>
          </Paper>
        </Affix>
      )}
      <ShareSelectionBar
        selection={sharing}
        kind="photos"
        noun={(count) => (count === 1 ? '1 photo or X-ray' : `${count} photos and X-rays`)}
      />
      <PhotoComparison
        photos={comparing && first !== undefined && second !== undefined ? [first, second] : null}
        onClose={() => {
          setComparing(false);
        }}
      />
    </>
  );
}
