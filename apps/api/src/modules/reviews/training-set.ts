import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import type { BlobStore } from '#api/adapters/blob-store/blob-store';
import type { StoredReviewFinding } from '#api/db/schema';
import { extensionOfKey } from '../files/file-storage';
import type { ConsentedImage, ReviewRepository } from './reviews.repository';
import type { StoredImageSize } from './reviews.service';

/** The class names of each kind's model, in their order (the models' `labels.json`). */
export type ClassNames = Record<ConsentedImage['imageKind'], readonly string[]>;

/** One image written, as the manifest lists it. */
export interface ManifestImage {
  review_id: string;
  consent_granted_at: string;
  photo_id: string | null;
  kind: ConsentedImage['imageKind'];
  image: string;
  labels: string;
  boxes: number;
  /** Boxes whose label is none of the kind's classes: left out of the labels. */
  unknown_labels: string[];
}

export interface Manifest {
  written_at: string;
  classes: ClassNames;
  images: ManifestImage[];
}

/** The boxes that teach: the AI's confirmed and the dentist's own, never the rejected. */
export function teachingFindings(
  findings: readonly StoredReviewFinding[],
  photoId: string | null,
): StoredReviewFinding[] {
  return findings.filter(
    (finding) => finding.photoId === photoId && finding.verdict !== 'rejected',
  );
}

/** A YOLO row (`class cx cy w h`, normalised), as training/common.py#read_boxes reads X-rays. */
export function yoloRow(
  classIndex: number,
  [x1, y1, x2, y2]: StoredReviewFinding['box'],
  size: { width: number; height: number },
): string {
  const cx = (x1 + x2) / 2 / size.width;
  const cy = (y1 + y2) / 2 / size.height;
  return [classIndex, cx, cy, (x2 - x1) / size.width, (y2 - y1) / size.height].join(' ');
}

/** A DOTA row (four corners in pixels, class, difficulty), as training/common.py#read_dota_boxes
 *  reads photos (whose class names have no spaces). */
export function dotaRow(className: string, [x1, y1, x2, y2]: StoredReviewFinding['box']): string {
  return [x1, y1, x2, y1, x2, y2, x1, y2, className, 0].join(' ');
}

/**
 * Writes the answered reviews of the members who consent now as a data set in the layout
 * `training/` reads (docs/decisions/photo-reviews.md): per kind, images
 * under `<kind>/images/` and labels beside them (`labels/` YOLO rows for X-rays, `labelTxt/`
 * DOTA rows for photos), and `manifest.json` naming each image's review and consent time.
 * Nothing of a member without consent, or who withdrew it, is read.
 */
export async function writeTrainingSet(
  repository: ReviewRepository,
  blobs: BlobStore,
  imageSize: StoredImageSize,
  classes: ClassNames,
  outDir: string,
  now: Date,
): Promise<Manifest> {
  const images: ManifestImage[] = [];
  const counters = new Map<string, number>();
  for (const image of await repository.consentedImages()) {
    const blob = await blobs.get(image.blobKey);
    if (blob === null) continue;
    const position = (counters.get(image.reviewId) ?? 0) + 1;
    counters.set(image.reviewId, position);
    const stem = `${image.reviewId}-${String(position)}`;
    const kindDir = path.join(outDir, image.imageKind);
    const labelDir = image.imageKind === 'xray' ? 'labels' : 'labelTxt';
    const imageRel = path.posix.join(
      image.imageKind,
      'images',
      `${stem}.${extensionOfKey(image.blobKey)}`,
    );
    const labelsRel = path.posix.join(image.imageKind, labelDir, `${stem}.txt`);
    await mkdir(path.join(kindDir, 'images'), { recursive: true });
    await mkdir(path.join(kindDir, labelDir), { recursive: true });
    await writeFile(path.join(outDir, imageRel), await buffer(blob.stream));
    const names = classes[image.imageKind].map((name) => name.toLowerCase());
    const size = await imageSize(image.blobKey);
    const rows: string[] = [];
    const unknown: string[] = [];
    for (const finding of teachingFindings(image.findings, image.photoId)) {
      const index = names.indexOf(finding.label.toLowerCase());
      if (index < 0) {
        unknown.push(finding.label);
        continue;
      }
      const className = classes[image.imageKind][index] ?? finding.label;
      rows.push(
        image.imageKind === 'xray'
          ? yoloRow(index, finding.box, size)
          : dotaRow(className, finding.box),
      );
    }
    await writeFile(path.join(outDir, labelsRel), rows.map((row) => `${row}\n`).join(''));
    images.push({
      review_id: image.reviewId,
      consent_granted_at: image.consentGrantedAt.toISOString(),
      photo_id: image.photoId,
      kind: image.imageKind,
      image: imageRel,
      labels: labelsRel,
      boxes: rows.length,
      unknown_labels: unknown,
    });
  }
  const manifest: Manifest = { written_at: now.toISOString(), classes, images };
  await mkdir(outDir, { recursive: true });
  await writeFile(path.join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}
