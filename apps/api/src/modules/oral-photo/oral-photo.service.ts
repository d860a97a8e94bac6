import {
  type NewOralPhoto,
  type OralPhoto,
  type OralPhotoListQuery,
  type OralPhotoUpdate,
} from '@dental/contracts';
import { pageOf, type Page } from '#api/lib/pagination';
import type { Clock } from '#api/clock';
import type { OralPhotoRow } from '#api/db/schema';
import { NotFound } from '#api/domain-errors';
import {
  extensionOfKey,
  newBlobKey,
  thumbnailKeyOf,
  type FileStorage,
} from '../files/file-storage';
import type { PlanLimitsService } from '../membership/plan-limits.service';
import type { AcceptedImage, UploadAcceptance } from '../uploads/upload-acceptance';
import type { OralPhotoRepository, StoredImage } from './oral-photo.repository';

export const oralPhotoNotFoundMessage = 'This photo was not found.';

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
      },
      query,
    );
    const page = pageOf(rows, query);
    return { ...page, items: page.items.map((row) => this.toOralPhoto(row)) };
  }

  async get(userId: string, id: string): Promise<OralPhoto> {
    const row = await this.repository.find(userId, id);
    if (row === undefined) throw new NotFound(oralPhotoNotFoundMessage);
    return this.toOralPhoto(row);
  }

  /** Stores the image (checked by its bytes, 5 MB at most) and its thumbnail, within the quota. */
  async create(userId: string, input: NewOralPhoto): Promise<OralPhoto> {
    const image = await this.uploads.acceptImage(input.image_link);
    const stored = await this.store(userId, image);
    try {
      const row = await this.repository.transaction(async (photos, tx) => {
        await this.planLimits.reserveStorage(tx, userId, storedBytes(stored));
        return photos.insert(
          userId,
          {
            shootDate: input.shoot_date,
            photoType: input.photo_type,
            note: input.note,
            ...stored,
          },
          this.clock.now(),
        );
      });
      return this.toOralPhoto(row);
    } catch (error) {
      await this.files.discard([stored.blobKey, stored.thumbnailKey]);
      throw error;
    }
  }

  /** Changes date, type and note; a new image, when sent, replaces the stored one. */
  async update(userId: string, id: string, input: OralPhotoUpdate): Promise<OralPhoto> {
    const fields = { shootDate: input.shoot_date, photoType: input.photo_type, note: input.note };
    if (input.image_link === undefined) {
      const row = await this.repository.update(userId, id, fields, this.clock.now());
      if (row === undefined) throw new NotFound(oralPhotoNotFoundMessage);
      return this.toOralPhoto(row);
    }
    const image = await this.uploads.acceptImage(input.image_link);
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
      await this.files.discard([stored.blobKey, stored.thumbnailKey]);
      throw error;
    }
    await this.files.discard([replaced.blobKey, replaced.thumbnailKey]);
    return this.toOralPhoto(row);
  }

  /** Removes the photo, then its image and thumbnail. */
  async delete(userId: string, id: string): Promise<void> {
    const row = await this.repository.delete(userId, id);
    if (row === undefined) throw new NotFound(oralPhotoNotFoundMessage);
    await this.files.discard([row.blobKey, row.thumbnailKey]);
  }

  /** Writes the original and its thumbnail before any row refers to them. */
  private async store(userId: string, image: AcceptedImage): Promise<StoredImage> {
    const blobKey = newBlobKey(userId, 'oral-photo', image.extension);
    const thumbnailKey = thumbnailKeyOf(blobKey);
    await this.files.put([
      { key: blobKey, bytes: image.bytes, contentType: image.contentType },
      { key: thumbnailKey, bytes: image.thumbnail.bytes, contentType: image.thumbnail.contentType },
    ]);
    return {
      blobKey,
      contentType: image.contentType,
      sizeBytes: image.size,
      thumbnailKey,
      thumbnailSizeBytes: image.thumbnail.bytes.length,
    };
  }

  /** Rows never leave the service: the oral photo of docs/product/records.md#photo-calls with
   *  signed links to the stored images. */
  private toOralPhoto(row: OralPhotoRow): OralPhoto {
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
      note: row.note,
    };
  }
}

/** What a stored image counts against the quota: original and thumbnail. */
function storedBytes(image: Pick<StoredImage, 'sizeBytes' | 'thumbnailSizeBytes'>): number {
  return image.sizeBytes + image.thumbnailSizeBytes;
}
