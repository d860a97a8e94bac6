import { useState } from 'react';
import { Anchor, Group, Paper, Stack, Text, Title, UnstyledButton } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { permanentTeeth, toothName, type OralPhoto } from '@dental/contracts';
import { paths } from '#web/config/paths';
import NotFoundPage from '#web/components/not-found-page';
import { ImageViewer } from '#web/components/image-viewer/image-viewer';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { useAllOralPhotos, useToothPhotos } from './api/get-oral-photos';
import { photoLabel } from '#web/lib/photo-label';
import { TeethLinks, ToothChart, toothLabel } from './components/tooth-chart';
import chartClasses from './components/tooth-chart.module.css';
import { oralPhotoTitle } from './oral-photo-list-page';

/** How many of the member's photos show each tooth. */
function countByTooth(photos: readonly OralPhoto[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const photo of photos) {
    for (const tooth of photo.teeth) counts.set(tooth, (counts.get(tooth) ?? 0) + 1);
  }
  return counts;
}

const imagesText = (count: number) => (count === 1 ? '1 image' : `${String(count)} images`);

/**
 * Photos by tooth (docs/product/records.md#tooth-tags): the tooth chart, each tooth a link with
 * its number of images; under /oral-photo/teeth/{tooth}, that tooth's timeline, oldest first, in
 * the app's viewer.
 */
export default function ToothTimelinePage() {
  const { tooth: toothParam } = useParams();
  const tooth = toothParam === undefined ? undefined : Number(toothParam);
  const known = tooth === undefined || permanentTeeth.includes(tooth);
  const title =
    tooth === undefined || !known
      ? 'Photos by tooth'
      : `Tooth ${String(tooth)}: ${toothName(tooth)}`;
  useDocumentTitle(title);
  const all = useAllOralPhotos();
  const counts = countByTooth(all.data ?? []);

  if (!known) return <NotFoundPage />;
  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.oralPhotos} size="sm">
        Back to {oralPhotoTitle}
      </Anchor>
      <Title order={1}>{title}</Title>
      {tooth === undefined && (
        <Text>
          Choose a tooth to see its photos and X-rays in date order. Tag teeth when you add or edit
          a photo.
        </Text>
      )}
      {/* The tooth's images come first, so on a phone they are not below the whole chart. */}
      {tooth !== undefined && <Timeline tooth={tooth} />}
      <Stack
        gap="sm"
        component="nav"
        {...(tooth === undefined
          ? { 'aria-label': 'Teeth' }
          : { 'aria-labelledby': 'tooth-chart-heading' })}
      >
        {tooth !== undefined && (
          <Title order={2} size="h3" id="tooth-chart-heading">
            Other teeth
          </Title>
        )}
        <ToothChart
          renderTooth={(shown) => {
            const count = counts.get(shown) ?? 0;
            return (
              <Link
                to={paths.toothTimeline(shown)}
                className={`${chartClasses.tooth} ${count === 0 ? chartClasses.empty : ''}`}
                aria-current={shown === tooth ? 'page' : undefined}
                aria-label={`${toothLabel(shown)}, ${count === 0 ? 'no images' : imagesText(count)}`}
              >
                {shown}
                {count > 0 && (
                  <span className={chartClasses.count} aria-hidden>
                    {count}
                  </span>
                )}
              </Link>
            );
          }}
        />
      </Stack>
      {all.isError && <LoadFailed error={all.error} onRetry={all.refetch} />}
    </Stack>
  );
}

/** One tooth's images, oldest first; each opens the viewer, which pages through them in order. */
function Timeline({ tooth }: { tooth: number }) {
  const photos = useToothPhotos(tooth);
  const [viewed, setViewed] = useState<number | null>(null);
  const list = photos.data ?? [];
  return (
    <Stack gap="sm" component="section" aria-labelledby="tooth-timeline-heading">
      <Title order={2} size="h3" id="tooth-timeline-heading">
        Timeline, oldest first
      </Title>
      {photos.isPending && <PageSpinner />}
      {photos.isError && <LoadFailed error={photos.error} onRetry={photos.refetch} />}
      {photos.data?.length === 0 && (
        <Text c="dimmed">
          No photos of tooth {tooth} yet. Pick the tooth when you add or edit a photo.
        </Text>
      )}
      {list.length > 0 && (
        <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {list.map((photo, index) => (
            <Paper component="li" key={photo.id} withBorder p="sm" radius="md">
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <UnstyledButton
                  style={{ flex: 'none' }}
                  onClick={() => {
                    setViewed(index);
                  }}
                  aria-label={`View ${photoLabel(photo)} full screen`}
                >
                  <img
                    src={photo.thumbnail_link}
                    alt=""
                    loading="lazy"
                    width={96}
                    height={96}
                    style={{ objectFit: 'cover', borderRadius: 4, display: 'block' }}
                  />
                </UnstyledButton>
                <Stack gap={4} style={{ minWidth: 0 }}>
                  <Group gap="xs">
                    <Text fw={600}>{photo.shoot_date}</Text>
                    <Text c="dimmed">{photo.photo_type}</Text>
                  </Group>
                  {photo.note !== '' && (
                    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                      {photo.note}
                    </Text>
                  )}
                  <TeethLinks teeth={photo.teeth} />
                </Stack>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
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
    </Stack>
  );
}
