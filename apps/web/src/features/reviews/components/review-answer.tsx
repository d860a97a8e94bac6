import { Stack, Text, Title } from '@mantine/core';
import { coloursByFirstAppearance, type Review, type ReviewFinding } from '@dental/contracts';
import { DetectionImage, type DrawnBox } from '#web/components/detection-image';
import classes from '../reviews.module.css';
import { reviewDay } from './review-dates';

const verdictWords = {
  confirmed: 'an area the Dental AI marked, confirmed by the dentist',
  added: 'marked by the dentist',
} as const;

function drawn(finding: ReviewFinding): DrawnBox {
  const [xmin, ymin, xmax, ymax] = finding.box;
  return { xmin, ymin, xmax, ymax, crop_prediction: finding.label };
}

function areas(count: number): string {
  return count === 1 ? '1 marked area' : `${String(count)} marked areas`;
}

/** The dentist's answer (docs/product/photo-reviews.md#the-answer): who answered and when, the
 *  report as text (never HTML), each image with the boxes the dentist confirmed or drew, a list
 *  saying what each box is, and the AI's marks the dentist did not confirm, in words only (they
 *  are not drawn). The member's review and the console show the same. */
export function ReviewAnswer({
  review,
  imageName = 'Your image',
}: {
  review: Review;
  /** What the images are called: the member's own, or the patient's in the console. */
  imageName?: string;
}) {
  const shown = review.findings.filter((finding) => finding.verdict !== 'rejected');
  const rejected = review.findings.filter((finding) => finding.verdict === 'rejected');
  const colours = coloursByFirstAppearance(shown.map((finding) => finding.label));
  // One line per label: the same words repeated for each of a label's marks say nothing more.
  const rejectedCounts = new Map<string, number>();
  for (const { label } of rejected) rejectedCounts.set(label, (rejectedCounts.get(label) ?? 0) + 1);
  return (
    <Stack gap="md">
      <Text size="sm">
        {review.reviewer?.name ?? 'A dentist'}
        {review.answered_at !== null && `, ${reviewDay(review.answered_at)}`}
      </Text>
      <Text className={classes.text}>{review.report}</Text>
      {review.images.map((image, index) => {
        const onImage = shown.filter((finding) => finding.photo === image.photo);
        const name = review.images.length === 1 ? imageName : `${imageName} ${String(index + 1)}`;
        return (
          <Stack gap="xs" key={image.photo ?? 'dental-ai'}>
            <DetectionImage
              src={image.image_url}
              alt={`${name} with ${areas(onImage.length)}`}
              boxes={onImage.map(drawn)}
              colours={colours}
            />
            {onImage.length > 0 && (
              <ul
                className={classes.legend}
                aria-label={`What the boxes on ${name.toLowerCase()} show`}
              >
                {onImage.map((finding, findingIndex) => (
                  <li key={findingIndex} className={classes.legendItem}>
                    <span
                      className={classes.swatch}
                      style={{ borderColor: colours.get(finding.label) }}
                      aria-hidden="true"
                    />
                    <span>
                      <strong>{finding.label}</strong> ({colours.get(finding.label)} box):{' '}
                      {verdictWords[finding.verdict === 'added' ? 'added' : 'confirmed']}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Stack>
        );
      })}
      {rejected.length > 0 && (
        <Stack gap="xs">
          <Title order={3} size="h4">
            Marks of the Dental AI the dentist did not confirm
          </Title>
          <ul className={classes.legend}>
            {[...rejectedCounts].map(([label, count]) => (
              <li key={label}>
                {label}: {count === 1 ? 'marked' : `${String(count)} areas marked`} by the Dental
                AI, not confirmed by the dentist (not drawn above)
              </li>
            ))}
          </ul>
        </Stack>
      )}
      {shown.length === 0 && rejected.length === 0 && (
        <Text>The dentist marked no areas on {imageName.toLowerCase()}s.</Text>
      )}
    </Stack>
  );
}
