import type { ReviewFinding } from '@dental/contracts';
import type { FieldErrors } from '#api/domain-errors';

/** An image of the review as the findings are checked against it. */
export interface JudgedImage {
  /** The photo, or null for a Dental AI result's image. */
  photo: string | null;
  width: number;
  height: number;
  /** How many boxes the Dental AI drew on it. */
  aiBoxes: number;
}

/**
 * What is wrong with a practitioner's findings, by field (`findings.2.box`); empty when they
 * fit: each box on one of the review's images and inside it, an AI box named only by a
 * confirmed or rejected finding and only once, a drawn box ('added') naming none.
 */
export function findingErrors(
  findings: readonly ReviewFinding[],
  images: readonly JudgedImage[],
): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => {
    (errors[field] ??= []).push(message);
  };
  const judged = new Set<string>();
  findings.forEach((finding, index) => {
    const at = `findings.${String(index)}`;
    const image = images.find((candidate) => candidate.photo === finding.photo);
    if (image === undefined) {
      add(`${at}.photo`, 'This box is not on an image of the review.');
      return;
    }
    const [, , x2, y2] = finding.box;
    if (x2 > image.width || y2 > image.height) {
      add(
        `${at}.box`,
        `The box must lie inside the image (${String(image.width)} × ${String(image.height)} pixels).`,
      );
    }
    if (finding.verdict === 'added') {
      if (finding.ai_box !== null) add(`${at}.ai_box`, 'A box you drew names no AI box.');
      return;
    }
    if (finding.ai_box === null) {
      add(`${at}.ai_box`, 'Name the AI box you confirm or reject.');
    } else if (finding.ai_box >= image.aiBoxes) {
      add(`${at}.ai_box`, 'There is no AI box with this number.');
    } else {
      const key = `${finding.photo ?? ''}#${String(finding.ai_box)}`;
      if (judged.has(key)) add(`${at}.ai_box`, 'This AI box is already judged.');
      judged.add(key);
    }
  });
  return errors;
}
