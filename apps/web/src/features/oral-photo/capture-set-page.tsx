import { useState } from 'react';
import { Anchor, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useNavigate, useParams } from 'react-router';
import { captureViewWords, type OralPhoto } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { DeleteButton } from '#web/components/delete-button';
import { LoadFailed } from '#web/components/load-failed';
import { LoadingImage } from '#web/components/loading-image';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { photoLabel } from '#web/lib/photo-label';
import { useCaptureSet } from './api/get-capture-set';
import { useDeleteOralPhoto } from './api/delete-oral-photo';
import { PhotoComparison } from './components/photo-comparison';
import { AskReviewLink } from './components/ask-review-link';
import { PhotoDentalAi } from './components/photo-dental-ai';

/** A view's name with the photo's: 'Front, Photo of 2026-11-29'. */
function viewLabel(photo: OralPhoto): string {
  const view = photo.capture_view === null ? null : captureViewWords[photo.capture_view].name;
  return view === null ? photoLabel(photo) : `${view}, ${photoLabel(photo)}`;
}

/**
 * One guided capture (docs/product/records.md#guided-capture): its views one under another, each
 * compared with the same view of the set before, checked for caries by Dental AI, sent to a
 * dentist to review, or deleted.
 */
export default function CaptureSetPage() {
  const { setId = '' } = useParams();
  const set = useCaptureSet(setId);
  const deletePhoto = useDeleteOralPhoto();
  const navigate = useNavigate();
  const [compared, setCompared] = useState<readonly [OralPhoto, OralPhoto] | null>(null);
  useDocumentTitle(set.data === undefined ? 'Photo set' : `Photos of ${set.data.shoot_date}`);
  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.oralPhotos}>
        X-rays and Photos Storage
      </Anchor>
      {set.isPending && <PageSpinner />}
      {set.isError && <LoadFailed error={set.error} onRetry={set.refetch} />}
      {set.data && (
        <>
          <Title order={1}>
            Photos of <span style={{ whiteSpace: 'nowrap' }}>{set.data.shoot_date}</span>
          </Title>
          <Text>
            {set.data.previous === null
              ? 'Your first set of photos: the next set will be compared with it, view by view.'
              : `Each view can be compared with your set of ${set.data.previous.shoot_date}.`}
          </Text>
          {set.data.photos.map((photo) => {
            const before = set.data.previous?.photos.find(
              (earlier) => earlier.capture_view === photo.capture_view,
            );
            const label = viewLabel(photo);
            const titleId = `view-${photo.id}`;
            return (
              <Card key={photo.id} withBorder component="section" aria-labelledby={titleId}>
                <Stack gap="sm">
                  <Title order={2} size="h3" id={titleId}>
                    {photo.capture_view === null
                      ? photoLabel(photo)
                      : captureViewWords[photo.capture_view].name}
                  </Title>
                  <LoadingImage src={photo.image_link} alt={label} height={260} />
                  <Group gap="xs">
                    {before !== undefined && (
                      <Button
                        variant="default"
                        size="xs"
                        aria-label={`Compare ${label} with ${before.shoot_date}`}
                        onClick={() => {
                          setCompared([before, photo]);
                        }}
                      >
                        {`Compare with ${before.shoot_date}`}
                      </Button>
                    )}
                    <AskReviewLink photo={photo} label={label} />
                    <DeleteButton
                      deletion={deletePhoto}
                      id={photo.id}
                      title="Delete photo"
                      question={`Do you really want to delete this photo (${label})? This cannot be undone.`}
                      // With its last view gone the set is no more: back to the list.
                      {...(set.data.photos.length === 1
                        ? {
                            onDeleted: async () => {
                              await navigate(paths.oralPhotos);
                            },
                          }
                        : {})}
                    />
                  </Group>
                  <PhotoDentalAi photo={photo} label={label} regionName={`Dental AI: ${label}`} />
                </Stack>
              </Card>
            );
          })}
        </>
      )}
      <PhotoComparison
        photos={compared}
        onClose={() => {
          setCompared(null);
        }}
      />
    </Stack>
  );
}
