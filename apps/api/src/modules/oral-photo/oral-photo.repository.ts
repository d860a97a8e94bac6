import { and, desc, eq, gte, lte, type SQL } from 'drizzle-orm';
import type { PhotoType } from '@dental/contracts';
import type { PageRequest } from '@dental/contracts';
import type { Database } from '#api/db/client';
import { rowsToFetch } from '#api/lib/pagination';
import { oralPhotos, type OralPhotoRow } from '#api/db/schema';
import { insertedRow } from '#api/db/inserted-row';

export interface OralPhotoFilter {
  /** Undefined means both types. */
  photoType?: PhotoType;
  startDate?: string;
  endDate?: string;
}

export type OralPhotoFields = Pick<OralPhotoRow, 'shootDate' | 'photoType' | 'note'>;
export type StoredImage = Pick<
  OralPhotoRow,
  'blobKey' | 'contentType' | 'sizeBytes' | 'thumbnailKey' | 'thumbnailSizeBytes'
>;

/** The only code that reads or writes photos; every query is bounded to one member. */
export class OralPhotoRepository {
  constructor(readonly db: Database) {}

  /** Runs `work` in one transaction; `tx` is handed on to the quota check. */
  transaction<T>(work: (repository: OralPhotoRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new OralPhotoRepository(tx), tx));
  }

  /** Newest shoot date first, at most `limit` rows. */
  list(userId: string, filter: OralPhotoFilter, page: PageRequest): Promise<OralPhotoRow[]> {
    const conditions: SQL[] = [eq(oralPhotos.userId, userId)];
    if (filter.photoType !== undefined) conditions.push(eq(oralPhotos.photoType, filter.photoType));
    if (filter.startDate !== undefined)
      conditions.push(gte(oralPhotos.shootDate, filter.startDate));
    if (filter.endDate !== undefined) conditions.push(lte(oralPhotos.shootDate, filter.endDate));
    return this.db
      .select()
      .from(oralPhotos)
      .where(and(...conditions))
      .orderBy(desc(oralPhotos.shootDate), desc(oralPhotos.createdAt), desc(oralPhotos.id))
      .limit(rowsToFetch(page))
      .offset(page.offset);
  }

  async find(userId: string, id: string): Promise<OralPhotoRow | undefined> {
    const [row] = await this.db
      .select()
      .from(oralPhotos)
      .where(and(eq(oralPhotos.userId, userId), eq(oralPhotos.id, id)));
    return row;
  }

  /** The photo, locked until the transaction ends (so two edits cannot both replace one image). */
  async findForUpdate(userId: string, id: string): Promise<OralPhotoRow | undefined> {
    const [row] = await this.db
      .select()
      .from(oralPhotos)
      .where(and(eq(oralPhotos.userId, userId), eq(oralPhotos.id, id)))
      .for('update');
    return row;
  }

  async insert(
    userId: string,
    values: OralPhotoFields & StoredImage,
    now: Date,
  ): Promise<OralPhotoRow> {
    const row = insertedRow(
      await this.db
        .insert(oralPhotos)
        .values({ ...values, userId, createdAt: now, updatedAt: now })
        .returning(),
    );
    return row;
  }

  async update(
    userId: string,
    id: string,
    values: OralPhotoFields & Partial<StoredImage>,
    now: Date,
  ): Promise<OralPhotoRow | undefined> {
    const [row] = await this.db
      .update(oralPhotos)
      .set({ ...values, updatedAt: now })
      .where(and(eq(oralPhotos.userId, userId), eq(oralPhotos.id, id)))
      .returning();
    return row;
  }

  async delete(userId: string, id: string): Promise<OralPhotoRow | undefined> {
    const [row] = await this.db
      .delete(oralPhotos)
      .where(and(eq(oralPhotos.userId, userId), eq(oralPhotos.id, id)))
      .returning();
    return row;
  }
}
