import {
  and,
  arrayContains,
  asc,
  desc,
  eq,
  gte,
  inArray,
  isNotNull,
  lt,
  lte,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { PhotoSequence, PhotoType } from '@dental/contracts';
import type { OutsideRangeCount, PageRequest } from '@dental/contracts';
import type { Database } from '#api/db/client';
import { rowsToFetch } from '#api/lib/pagination';
import { outsideRangeCounts } from '#api/lib/outside-range';
import { oralPhotos, type OralPhotoRow } from '#api/db/schema';
import { insertedRow } from '#api/db/inserted-row';

export interface OralPhotoFilter {
  /** Undefined means both types. */
  photoType?: PhotoType;
  startDate?: string;
  endDate?: string;
  /** Only photos tagged with this FDI tooth number. */
  tooth?: number;
}

/** Teeth undefined on an update keeps the stored ones. */
export type OralPhotoFields = Pick<OralPhotoRow, 'shootDate' | 'photoType' | 'note'> &
  Partial<Pick<OralPhotoRow, 'teeth'>>;
/** Only on insert: a photo stays in the set and view it was taken as. */
export type CaptureFields = Pick<OralPhotoRow, 'captureSetId' | 'captureView'>;
export type StoredImage = Pick<
  OralPhotoRow,
  | 'blobKey'
  | 'contentType'
  | 'sizeBytes'
  | 'thumbnailKey'
  | 'thumbnailSizeBytes'
  | 'originalKey'
  | 'originalSizeBytes'
>;

/**
 * The columns a listed photo is answered with: the sizes, the owner and the time of the last
 * change are left out, since the web app's page would read, parse and build them for 31 rows
 * only to drop them (docs/decisions/api-request-cost.md).
 */
const listedColumns = {
  id: oralPhotos.id,
  shootDate: oralPhotos.shootDate,
  photoType: oralPhotos.photoType,
  note: oralPhotos.note,
  blobKey: oralPhotos.blobKey,
  contentType: oralPhotos.contentType,
  thumbnailKey: oralPhotos.thumbnailKey,
  originalKey: oralPhotos.originalKey,
  teeth: oralPhotos.teeth,
  captureSetId: oralPhotos.captureSetId,
  captureView: oralPhotos.captureView,
  createdAt: oralPhotos.createdAt,
};
/** A photo as the list reads it. */
export type ListedPhoto = Pick<OralPhotoRow, keyof typeof listedColumns>;

/** The list's filters; each combination of them, in each order, has its own prepared statement. */
const listFilters = ['photoType', 'startDate', 'endDate', 'tooth'] as const;
type ListFilter = (typeof listFilters)[number];

/** The only code that reads or writes photos; every query is bounded to one member. */
export class OralPhotoRepository {
  private readonly listStatements = new Map<
    string,
    ReturnType<OralPhotoRepository['prepareList']>
  >();

  constructor(readonly db: Database) {}

  /** Runs `work` in one transaction; `tx` is handed on to the quota check. */
  transaction<T>(work: (repository: OralPhotoRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new OralPhotoRepository(tx), tx));
  }

  /** Newest shoot date first (oldest first for `ascending`), at most `limit` rows. */
  list(
    userId: string,
    filter: OralPhotoFilter,
    page: PageRequest & { sequence: PhotoSequence },
  ): Promise<ListedPhoto[]> {
    const present = listFilters.filter((key) => filter[key] !== undefined);
    const name = ['oral_photo_list', page.sequence, ...present].join('_');
    let statement = this.listStatements.get(name);
    if (statement === undefined) {
      statement = this.prepareList(new Set(present), page.sequence, name);
      this.listStatements.set(name, statement);
    }
    return statement.execute({
      userId,
      photoType: filter.photoType,
      startDate: filter.startDate,
      endDate: filter.endDate,
      teeth: filter.tooth === undefined ? undefined : [filter.tooth],
      limit: rowsToFetch(page),
      offset: page.offset,
    });
  }

  /**
   * The list's statement for one combination of filters and order, prepared once on each
   * connection: the web app reads a page on every scroll, and building and planning the query
   * again took 0.82 ms a list here, against 0.50 ms prepared (docs/decisions/api-request-cost.md).
   */
  private prepareList(present: ReadonlySet<ListFilter>, sequence: PhotoSequence, name: string) {
    const conditions: SQL[] = [eq(oralPhotos.userId, sql.placeholder('userId'))];
    if (present.has('photoType')) {
      conditions.push(eq(oralPhotos.photoType, sql.placeholder('photoType')));
    }
    if (present.has('startDate')) {
      conditions.push(gte(oralPhotos.shootDate, sql.placeholder('startDate')));
    }
    if (present.has('endDate')) {
      conditions.push(lte(oralPhotos.shootDate, sql.placeholder('endDate')));
    }
    if (present.has('tooth')) {
      conditions.push(arrayContains(oralPhotos.teeth, sql.placeholder('teeth')));
    }
    const direction = sequence === 'ascending' ? asc : desc;
    return this.db
      .select(listedColumns)
      .from(oralPhotos)
      .where(and(...conditions))
      .orderBy(
        direction(oralPhotos.shootDate),
        direction(oralPhotos.createdAt),
        direction(oralPhotos.id),
      )
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name);
  }

  /** How many of the member's photos (of the type, when one is given) lie outside the dates. */
  async countOutside(
    userId: string,
    filter: Omit<OralPhotoFilter, 'tooth'>,
  ): Promise<OutsideRangeCount> {
    const conditions: SQL[] = [eq(oralPhotos.userId, userId)];
    if (filter.photoType !== undefined) conditions.push(eq(oralPhotos.photoType, filter.photoType));
    const [row] = await this.db
      .select(outsideRangeCounts(oralPhotos.shootDate, filter))
      .from(oralPhotos)
      .where(and(...conditions));
    return row ?? { before: 0, after: 0 };
  }

  /** The member's photos among `ids` (others' ids are left out), newest shoot date first. */
  findMany(userId: string, ids: readonly string[]): Promise<OralPhotoRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .select()
      .from(oralPhotos)
      .where(and(eq(oralPhotos.userId, userId), inArray(oralPhotos.id, [...ids])))
      .orderBy(desc(oralPhotos.shootDate), desc(oralPhotos.createdAt), desc(oralPhotos.id));
  }

  /** The member's photos of one guided capture, in the order they were stored. */
  findCaptureSet(userId: string, setId: string): Promise<OralPhotoRow[]> {
    return this.db
      .select()
      .from(oralPhotos)
      .where(and(eq(oralPhotos.userId, userId), eq(oralPhotos.captureSetId, setId)))
      .orderBy(asc(oralPhotos.createdAt), asc(oralPhotos.id));
  }

  /** The id of the member's guided capture taken last before the photo `after` (by shoot date,
   *  then by when it was stored), other than `setId`; undefined when there is none. */
  async findPreviousCaptureSetId(
    userId: string,
    setId: string,
    after: Pick<OralPhotoRow, 'shootDate' | 'createdAt'>,
  ): Promise<string | undefined> {
    const [row] = await this.db
      .select({ captureSetId: oralPhotos.captureSetId })
      .from(oralPhotos)
      .where(
        and(
          eq(oralPhotos.userId, userId),
          isNotNull(oralPhotos.captureSetId),
          ne(oralPhotos.captureSetId, setId),
          or(
            lt(oralPhotos.shootDate, after.shootDate),
            and(
              eq(oralPhotos.shootDate, after.shootDate),
              lt(oralPhotos.createdAt, after.createdAt),
            ),
          ),
        ),
      )
      .orderBy(desc(oralPhotos.shootDate), desc(oralPhotos.createdAt))
      .limit(1);
    return row?.captureSetId ?? undefined;
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
    values: OralPhotoFields & StoredImage & Partial<CaptureFields>,
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
