import { and, asc, count, desc, eq, gte, inArray, lte, type SQL } from 'drizzle-orm';
import type { RecordSequence } from '@dental/contracts';
import type { OutsideRangeCount, PageRequest } from '@dental/contracts';
import type { Database } from '#api/db/client';
import { rowsToFetch } from '#api/lib/pagination';
import { outsideRangeCounts, type DateRangeFilter } from '#api/lib/outside-range';
import {
  medicalFiles,
  medicalRecords,
  type MedicalFileRow,
  type MedicalRecordRow,
} from '#api/db/schema';
import { insertedRow } from '#api/db/inserted-row';

export interface MedicalRecordFilter {
  sequence: RecordSequence;
  startDate?: string;
  endDate?: string;
}

export type MedicalRecordFields = Pick<MedicalRecordRow, 'title' | 'recordDate' | 'note'>;
export type NewMedicalFile = Pick<
  MedicalFileRow,
  'fileName' | 'blobKey' | 'contentType' | 'sizeBytes'
>;

/** The only code that reads or writes records and their files; every query names the member. */
export class MedicalRecordRepository {
  constructor(private readonly db: Database) {}

  /** Runs `work` in one transaction; `tx` is handed on to the quota check. */
  transaction<T>(
    work: (repository: MedicalRecordRepository, tx: Database) => Promise<T>,
  ): Promise<T> {
    return this.db.transaction((tx) => work(new MedicalRecordRepository(tx), tx));
  }

  /** Records by record date in the order asked for, at most `limit`. */
  list(
    userId: string,
    filter: MedicalRecordFilter,
    page: PageRequest,
  ): Promise<MedicalRecordRow[]> {
    const conditions: SQL[] = [eq(medicalRecords.userId, userId)];
    if (filter.startDate !== undefined) {
      conditions.push(gte(medicalRecords.recordDate, filter.startDate));
    }
    if (filter.endDate !== undefined)
      conditions.push(lte(medicalRecords.recordDate, filter.endDate));
    const order = filter.sequence === 'ascending' ? asc : desc;
    return this.db
      .select()
      .from(medicalRecords)
      .where(and(...conditions))
      .orderBy(
        order(medicalRecords.recordDate),
        order(medicalRecords.createdAt),
        order(medicalRecords.id),
      )
      .limit(rowsToFetch(page))
      .offset(page.offset);
  }

  /** How many of the member's records lie outside the dates. */
  async countOutside(userId: string, range: DateRangeFilter): Promise<OutsideRangeCount> {
    const [row] = await this.db
      .select(outsideRangeCounts(medicalRecords.recordDate, range))
      .from(medicalRecords)
      .where(eq(medicalRecords.userId, userId));
    return row ?? { before: 0, after: 0 };
  }

  /** The member's records among `ids` (others' ids are left out), newest record date first. */
  findMany(userId: string, ids: readonly string[]): Promise<MedicalRecordRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .select()
      .from(medicalRecords)
      .where(and(eq(medicalRecords.userId, userId), inArray(medicalRecords.id, [...ids])))
      .orderBy(
        desc(medicalRecords.recordDate),
        desc(medicalRecords.createdAt),
        desc(medicalRecords.id),
      );
  }

  async find(userId: string, id: string): Promise<MedicalRecordRow | undefined> {
    const [row] = await this.db
      .select()
      .from(medicalRecords)
      .where(and(eq(medicalRecords.userId, userId), eq(medicalRecords.id, id)));
    return row;
  }

  /** The files of the given records of the member, oldest first. */
  filesOf(userId: string, recordIds: readonly string[]): Promise<MedicalFileRow[]> {
    if (recordIds.length === 0) return Promise.resolve([]);
    return this.db
      .select()
      .from(medicalFiles)
      .where(and(eq(medicalFiles.userId, userId), inArray(medicalFiles.recordId, [...recordIds])))
      .orderBy(asc(medicalFiles.createdAt), asc(medicalFiles.id));
  }

  async countFiles(userId: string, recordId: string): Promise<number> {
    const [row] = await this.db
      .select({ files: count() })
      .from(medicalFiles)
      .where(and(eq(medicalFiles.userId, userId), eq(medicalFiles.recordId, recordId)));
    return row?.files ?? 0;
  }

  async insert(userId: string, values: MedicalRecordFields, now: Date): Promise<MedicalRecordRow> {
    const row = insertedRow(
      await this.db
        .insert(medicalRecords)
        .values({ ...values, userId, createdAt: now, updatedAt: now })
        .returning(),
    );
    return row;
  }

  async insertFiles(
    userId: string,
    recordId: string,
    files: readonly NewMedicalFile[],
    now: Date,
  ): Promise<MedicalFileRow[]> {
    if (files.length === 0) return [];
    return this.db
      .insert(medicalFiles)
      .values(files.map((file) => ({ ...file, userId, recordId, createdAt: now })))
      .returning();
  }

  async update(
    userId: string,
    id: string,
    values: MedicalRecordFields,
    now: Date,
  ): Promise<MedicalRecordRow | undefined> {
    const [row] = await this.db
      .update(medicalRecords)
      .set({ ...values, updatedAt: now })
      .where(and(eq(medicalRecords.userId, userId), eq(medicalRecords.id, id)))
      .returning();
    return row;
  }

  /** Deletes the record; its files' rows go with it (ON DELETE CASCADE) and are answered. */
  async delete(
    userId: string,
    id: string,
  ): Promise<{ record: MedicalRecordRow; files: MedicalFileRow[] } | undefined> {
    const files = await this.filesOf(userId, [id]);
    const [record] = await this.db
      .delete(medicalRecords)
      .where(and(eq(medicalRecords.userId, userId), eq(medicalRecords.id, id)))
      .returning();
    return record && { record, files };
  }

  async deleteFile(
    userId: string,
    recordId: string,
    fileId: string,
  ): Promise<MedicalFileRow | undefined> {
    const [row] = await this.db
      .delete(medicalFiles)
      .where(
        and(
          eq(medicalFiles.userId, userId),
          eq(medicalFiles.recordId, recordId),
          eq(medicalFiles.id, fileId),
        ),
      )
      .returning();
    return row;
  }
}
