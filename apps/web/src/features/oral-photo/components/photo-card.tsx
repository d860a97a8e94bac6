import { Accordion, Button, Checkbox, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import type { OralPhoto } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { DeleteButton } from '#web/components/delete-button';
import { LoadingImage } from '#web/components/loading-image';
import { useDeleteOralPhoto } from '../api/delete-oral-photo';
import { TeethLinks } from './tooth-chart';
import { AskReviewLink } from './ask-review-link';
import { PhotoDentalAi } from './photo-dental-ai';
import classes from './photo-card.module.css';
import { useReadOnlyRecord } from '#web/lib/viewed-record';
import { photoLabel } from '#web/lib/photo-label';

export interface PhotoCardProps {
  photo: OralPhoto;
  opened: boolean;
  /** Opens the photo in the full-screen viewer. */
  onView: () => void;
  /** Whether the photo is picked for the side-by-side comparison. */
  compared: boolean;
  /** False once two photos are picked, or one of the other type. */
  canCompare: boolean;
  onCompareChange: (compared: boolean) => void;
  /** While the member chooses what to share: whether this one is chosen (docs/product/sharing.md). */
  share?: { chosen: boolean; onChange: (chosen: boolean) => void } | undefined;
}

/** One expandable photo card (docs/product/records.md#x-rays-and-photos): closed, its thumbnail,
 *  date, type and the start of the note; open, the image, date, type and note with view,
 *  download, edit and delete. Lists load thumbnails only; View and Download fetch the original. */
export function PhotoCard({
  photo,
  opened,
  onView,
  compared,
  canCompare,
  onCompareChange,
  share,
}: PhotoCardProps) {
  const deletePhoto = useDeleteOralPhoto();
  const readOnly = useReadOnlyRecord();
  const label = photoLabel(photo);
  return (
    <Accordion.Item value={photo.id}>
      <div className={classes.head}>
        <Accordion.Control>
          <Group gap="sm" wrap="nowrap">
            {/* The text beside it names the photo, so the thumbnail is not read out twice. */}
            <img src={photo.thumbnail_link} alt="" loading="lazy" className={classes.thumb} />
            <Stack gap={0} className={classes.summary}>
              {/* On a phone, beside the thumbnail and the Compare or Share box, the type goes
                  under the date instead of splitting it. */}
              <div className={classes.dateLine}>
                <Text fw={600} className={classes.nowrap}>
                  {photo.shoot_date}
                </Text>
                <Text c="dimmed" className={classes.nowrap}>
                  {photo.photo_type}
                </Text>
              </div>
              {/* Open, the card shows the whole note below. */}
              {!opened && photo.note !== '' && (
                <Text size="sm" c="dimmed" lineClamp={1}>
                  {photo.note}
                </Text>
              )}
            </Stack>
          </Group>
        </Accordion.Control>
        {share === undefined ? (
          <Checkbox
            label="Compare"
            aria-label={`Compare ${label}`}
            checked={compared}
            disabled={!compared && !canCompare}
            onChange={(event) => {
              onCompareChange(event.currentTarget.checked);
            }}
          />
        ) : (
          <Checkbox
            label="Share"
            aria-label={`Share ${label}`}
            checked={share.chosen}
            onChange={(event) => {
              share.onChange(event.currentTarget.checked);
            }}
          />
        )}
      </div>
      <Accordion.Panel>
        <Stack gap="sm">
          {opened && (
            <UnstyledButton onClick={onView} aria-label={`View ${label} full screen`}>
              <LoadingImage src={photo.thumbnail_link} alt={label} height={240} />
            </UnstyledButton>
          )}
          <Text>
            <Text span fw={600}>
              Date:
            </Text>{' '}
            {photo.shoot_date}
          </Text>
          <Text>
            <Text span fw={600}>
              Type:
            </Text>{' '}
            {photo.photo_type}
          </Text>
          <TeethLinks teeth={photo.teeth} />
          {photo.note !== '' && <Text style={{ whiteSpace: 'pre-wrap' }}>{photo.note}</Text>}
          <Group gap="xs">
            <Button variant="default" size="xs" onClick={onView}>
              View
            </Button>
            <Button component="a" href={photo.image_link} download variant="default" size="xs">
              Download
            </Button>
            {/* An X-ray imported from a DICOM file keeps that file (docs/product/records.md#dicom-x-rays). */}
            {photo.original_link !== null && (
              <Button
                component="a"
                href={photo.original_link}
                download
                variant="default"
                size="xs"
                aria-label={`Download original DICOM file of ${label}`}
              >
                Download original (DICOM)
              </Button>
            )}
            {!readOnly && (
              <Button
                component={Link}
                to={paths.oralPhotoEdit(photo.id)}
                variant="default"
                size="xs"
              >
                Edit
              </Button>
            )}
            <AskReviewLink photo={photo} label={label} />
            <DeleteButton
              deletion={deletePhoto}
              id={photo.id}
              title="Delete photo"
              question={`Do you really want to delete this ${label}? This cannot be undone.`}
            />
          </Group>
          {/* Its results are only asked for once the card is open. */}
          {opened && <PhotoDentalAi photo={photo} label={label} />}
        </Stack>
      </Accordion.Panel>
    </Accordion.Item>
  );
}
