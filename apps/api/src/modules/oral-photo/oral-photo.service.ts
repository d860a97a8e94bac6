import {
  captureFieldsTogetherMessage,
  captureSetNotFoundMessage,
  captureViews,
  type CaptureSet,
  type NewOralPhoto,
  type OralPhoto,
  type OralPhotoListQuery,
  type OralPhotoOutsideRangeQuery,
  type OutsideRangeCount,
  type OralPhotoUpdate,
} from '@dental/contracts';
import { pageOf, type Page } from '#api/lib/pagination';
import type { Clock } from '#api/clock';
import type { OralPhotoRow } from '#api/db/schema';
import { BadRequest, Conflict, NotFound } from '#api/domain-errors';
import { isUniqueViolation } from '#api/db/errors';
import {
  extensionOfKey,
  newBlobKey,
  originalKeyOf,
  thumbnailKeyOf,
  type FileStorage,
} from '../files/file-storage';
import type { PlanLimitsService } from '../membership/plan-limits.service';
import type { AcceptedPhoto, UploadAcceptance } from '../uploads/upload-acceptance';
import type { ListedPhoto, OralPhotoRepository, StoredImage } from './oral-photo.repository';

export const oralPhotoNotFoundMessage = 'This photo was not found.';
export const shootDateNeededMessage = 'Enter the date the photo was taken.';
export const photoTypeNeededMessage = 'Choose X-ray or Photo.';
export const captureViewTakenMessage = 'This view of the set has already been stored.';

/** X-rays and photos (docs/product/records.md#x-rays-and-photos); images share the plan's storage
 *  quota (docs/product/records.md#storage-quota). */
export class OralPhotoService {
  constructor(
    private readonly repository: OralPhotoRepository,
    private readonly uploads: UploadAcceptance,
    private readonly planLimits: PlanLimitsService,
    private readonly files: FileStorage,
    private readonly clock: Clock,
  ) {}

  /** The member's photos of the type and shoot dates asked for, newest first, bounded. */
  async list(userId: string, query: OralPhotoListQuery): Promise<Page<OralPhoto>> {
    const rows = await this.repository.list(
      userId,
      {
        ...(query.photoType === 'all' ? {} : { photoType: query.photoType }),
        ...(query.startDate === undefined ? {} : { startDate: query.startDate }),
        ...(query.endDate === undefined ? {} : { endDate: query.endDate }),
        ...(query.tooth === undefined ? {} : { tooth: query.tooth }),
      },
      query,
    );
    const page = pageOf(rows, query);
    return { ...page, items: page.items.map((row) => this.toOralPhoto(row)) };
  }

  /** How many of the member's photos of the type asked for the dates leave out, older and newer
   *  (docs/decisions/older-items-hint.md). */
  outsideRange(userId: string, query: OralPhotoOutsideRangeQuery): Promise<OutsideRangeCount> {
    return this.repository.countOutside(userId, {
      ...(query.photoType === 'all' ? {} : { photoType: query.photoType }),
      startDate: query.startDate,
      endDate: query.endDate,
    });
  }

  async get(userId: string, id: string): Promise<OralPhoto> {
    const row = await this.repository.find(userId, id);
    if (row === undefined) throw new NotFound(oralPhotoNotFoundMessage);
    return this.toOralPhoto(row);
  }

  /** The member's photos among `ids`, as answered to them; ids that are not theirs are left out
   *  (share links, docs/decisions/share-links.md). */
  async getMany(userId: string, ids: readonly string[]): Promise<OralPhoto[]> {
    const rows = await this.repository.findMany(userId, ids);
    return rows.map((row) => this.toOralPhoto(row));
  }

  /** Stores the image (checked by its bytes, 5 MB at most) and its thumbnail, within the quota; a
   *  DICOM file (10 MB at most) is kept beside the PNG rendered from it, and its study date and
   *  modality stand in for a date and type the request leaves out (docs/decisions/dicom-import.md). */
  async create(userId: string, input: NewOralPhoto): Promise<OralPhoto> {
    if ((input.capture_set_id === undefined) !== (input.capture_view === undefined)) {
      throw new BadRequest(captureFieldsTogetherMessage, {
        capture_set_id: [captureFieldsTogetherMessage],
      });
    }
    const image = await this.uploads.acceptPhotoOrDicom(input.image_link);
    const shootDate = input.shoot_date ?? image.dicom?.studyDate;
    const photoType = input.photo_type ?? image.dicom?.photoType;
    if (shootDate === undefined || photoType === undefined) {
      throw new BadRequest(
        shootDate === undefined ? shootDateNeededMessage : photoTypeNeededMessage,
        {
          ...(shootDate === undefined ? { shoot_date: [shootDateNeededMessage] } : {}),
          ...(photoType === undefined ? { photo_type: [photoTypeNeededMessage] } : {}),
        },
      );
    }
    const stored = await this.store(userId, image);
    try {
      const row = await this.repository.transaction(async (photos, tx) => {
        await this.planLimits.reserveStorage(tx, userId, storedBytes(stored));
        return photos.insert(
          userId,
          {
            shootDate,
            photoType,
            note: input.note,
            teeth: input.teeth,
            captureSetId: input.capture_set_id ?? null,
            captureView: input.capture_view ?? null,
            ...stored,
          },
          this.clock.now(),
        );
      });
      return this.toOralPhoto(row);
    } catch (error) {
      await this.files.discard(keysOf(stored));
      throw isUniqueViolation(error) ? new Conflict(captureViewTakenMessage) : error;
    }
  }

  /** A guided capture's photos in view order, with the set taken before it to compare view by
   *  view (docs/product/records.md#guided-capture); another member's set is not found. */
  async getCaptureSet(userId: string, setId: string): Promise<CaptureSet> {
    const rows = await this.repository.findCaptureSet(userId, setId);
    const [first] = rows;
    if (first === undefined) throw new NotFound(captureSetNotFoundMessage);
    const previousId = await this.repository.findPreviousCaptureSetId(userId, setId, first);
    const previous =
      previousId === undefined ? [] : await this.repository.findCaptureSet(userId, previousId);
    const [previousFirst] = previous;
    return {
      ...this.toCaptureSet(first, rows),
      previous: previousFirst === undefined ? null : this.toCaptureSet(previousFirst, previous),
    };
  }

  /** A set named and dated by its first stored photo, its photos in view order. */
  private toCaptureSet(first: OralPhotoRow, rows: OralPhotoRow[]) {
    const order = (row: OralPhotoRow) =>
      row.captureView === null ? captureViews.length : captureViews.indexOf(row.captureView);
    return {
      id: first.captureSetId ?? first.id,
      shoot_date: first.shootDate,
      photos: [...rows].sort((a, b) => order(a) - order(b)).map((row) => this.toOralPhoto(row)),
    };
  }

  /** Changes date, type and note; a new image, when sent, replaces the stored one. */
  async update(userId: string, id: string, input: OralPhotoUpdate): Promise<OralPhoto> {
    const fields = {
      shootDate: input.shoot_date,
      photoType: input.photo_type,
      note: input.note,
      // Absent keeps the stored teeth, so a client that does not know them cannot clear them.
      ...(input.teeth === undefined ? {} : { teeth: input.teeth }),
    };
    if (input.image_link === undefined) {
      const row = await this.repository.update(userId, id, fields, this.clock.now());
      if (row === undefined) throw new NotFound(oralPhotoNotFoundMessage);
      return this.toOralPhoto(row);
    }
    const image = await this.uploads.acceptPhotoOrDicom(input.image_link);
    const stored = await this.store(userId, image);
    let replaced: OralPhotoRow;
    let row: OralPhotoRow;
    try {
      [replaced, row] = await this.repository.transaction(async (photos, tx) => {
        const current = await photos.findForUpdate(userId, id);
        if (current === undefined) throw new NotFound(oralPhotoNotFoundMessage);
        await this.planLimits.reserveStorage(
          tx,
          userId,
          storedBytes(stored) - storedBytes(current),
        );
        const updated = await photos.update(userId, id, { ...fields, ...stored }, this.clock.now());
        if (updated === undefined) throw new NotFound(oralPhotoNotFoundMessage);
        return [current, updated] as const;
      });
    } catch (error) {
      await this.files.discard(keysOf(stored));
      throw error;
    }
    await this.files.discard(keysOf(replaced));
    return this.toOralPhoto(row);
  }

  /** Removes the photo, then its image and thumbnail. */
  async delete(userId: string, id: string): Promise<void> {
    const row = await this.repository.delete(userId, id);
    if (row === undefined) throw new NotFound(oralPhotoNotFoundMessage);
    await this.files.discard(keysOf(row));
  }

  /** Writes the original and its thumbnail before any row refers to them. */
  private async store(userId: string, image: AcceptedPhoto): Promise<StoredImage> {
    const blobKey = newBlobKey(userId, 'oral-photo', image.extension);
    const thumbnailKey = thumbnailKeyOf(blobKey);
    const originalKey = image.dicom && originalKeyOf(blobKey, image.dicom.extension);
    await this.files.put([
      { key: blobKey, bytes: image.bytes, contentType: image.contentType },
      { key: thumbnailKey, bytes: image.thumbnail.bytes, contentType: image.thumbnail.contentType },
      ...(image.dicom && originalKey !== undefined
        ? [{ key: originalKey, bytes: image.dicom.bytes, contentType: image.dicom.contentType }]
        : []),
    ]);
    return {
      blobKey,
      contentType: image.contentType,
      sizeBytes: image.size,
      thumbnailKey,
      thumbnailSizeBytes: image.thumbnail.bytes.length,
      originalKey: originalKey ?? null,
      originalSizeBytes: image.dicom?.size ?? null,
    };
  }

  /** Rows never leave the service: the oral photo of docs/product/records.md#photo-calls with
   *  signed links to the stored images. */
  private toOralPhoto(row: ListedPhoto): OralPhoto {
    const name = `${row.photoType}-${row.shootDate}`;
    return {
      id: row.id,
      shoot_date: row.shootDate,
      date: row.createdAt.toISOString(),
      photo_type: row.photoType,
      image_link: this.files.link({
        key: row.blobKey,
        contentType: row.contentType,
        disposition: 'inline',
        fileName: `${name}.${extensionOfKey(row.blobKey)}`,
      }),
      thumbnail_link: this.files.link({
        key: row.thumbnailKey,
        contentType: 'image/webp',
        disposition: 'inline',
        fileName: `${name}-thumbnail.webp`,
      }),
      original_link:
        row.originalKey === null
          ? null
          : this.files.link({
              key: row.originalKey,
              contentType: 'application/dicom',
              disposition: 'attachment',
              fileName: `${name}.${extensionOfKey(row.originalKey)}`,
            }),
      note: row.note,
      teeth: row.teeth,
      capture_set_id: row.captureSetId,
      capture_view: row.captureView,
    };
  }
}

/** What a stored image counts against the quota: image, thumbnail and any DICOM original. */
function storedBytes(
  image: Pick<StoredImage, 'sizeBytes' | 'thumbnailSizeBytes' | 'originalSizeBytes'>,
): number {
  return image.sizeBytes + image.thumbnailSizeBytes + (image.originalSizeBytes ?? 0);
}

/** Every blob a photo keeps. */
function keysOf(image: Pick<StoredImage, 'blobKey' | 'thumbnailKey' | 'originalKey'>): string[] {
  return [
    image.blobKey,
    image.thumbnailKey,
    ...(image.originalKey === null ? [] : [image.originalKey]),
  ];
}
