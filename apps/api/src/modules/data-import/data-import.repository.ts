import { randomUUID } from 'node:crypto';
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { insertedRow } from '#api/db/inserted-row';
import {
  appointments,
  dataImports,
  dentalAiResults,
  importedResources,
  medicalFiles,
  medicalRecords,
  oralPhotos,
  storedFileDigests,
  type DataImportRow,
} from '#api/db/schema';
import type { PlannedKind } from './bundle-plan';

type OralPhotoInsert = typeof oralPhotos.$inferInsert;
type MedicalRecordInsert = typeof medicalRecords.$inferInsert;
type MedicalFileInsert = typeof medicalFiles.$inferInsert;
type AppointmentInsert = typeof appointments.$inferInsert;
type DentalAiResultInsert = typeof dentalAiResults.$inferInsert;

/** The rows one import adds, written together or not at all. */
export type ImportedRow =
  | { kind: 'oral_photo'; source: string; row: Omit<OralPhotoInsert, 'userId'> }
  | {
      kind: 'medical_record';
      source: string;
      row: Omit<MedicalRecordInsert, 'userId'>;
      files: Omit<MedicalFileInsert, 'userId' | 'recordId'>[];
    }
  | { kind: 'appointment'; source: string; row: Omit<AppointmentInsert, 'userId'> }
  | { kind: 'dental_ai_result'; source: string; row: Omit<DentalAiResultInsert, 'userId'> };

const tables = {
  oral_photo: oralPhotos,
  medical_record: medicalRecords,
  appointment: appointments,
  dental_ai_result: dentalAiResults,
} as const;

/** The keys of a member's stored files of a kind, whose digests tell a file already there. */
const fileKeysOf = (kind: PlannedKind, userId: string) => {
  switch (kind) {
    case 'oral_photo':
      return sql`select ${oralPhotos.blobKey} from ${oralPhotos} where ${oralPhotos.userId} = ${userId}
        union all select ${oralPhotos.originalKey} from ${oralPhotos} where ${oralPhotos.userId} = ${userId}`;
    case 'medical_record':
      return sql`select ${medicalFiles.blobKey} from ${medicalFiles} where ${medicalFiles.userId} = ${userId}`;
    case 'dental_ai_result':
      return sql`select ${dentalAiResults.blobKey} from ${dentalAiResults} where ${dentalAiResults.userId} = ${userId}`;
    case 'appointment':
      return undefined;
  }
};

/** The only code that reads or writes data imports, and the one writer of an import's rows. */
export class DataImportRepository {
  constructor(private readonly db: Database) {}

  async create(id: string, userId: string, blobKey: string): Promise<DataImportRow> {
    return insertedRow(
      await this.db.insert(dataImports).values({ id, userId, blobKey }).returning(),
    );
  }

  async find(userId: string, id: string): Promise<DataImportRow | undefined> {
    const [row] = await this.db
      .select()
      .from(dataImports)
      .where(and(eq(dataImports.id, id), eq(dataImports.userId, userId)));
    return row;
  }

  async update(
    id: string,
    changes: Partial<Omit<DataImportRow, 'id' | 'userId' | 'createdAt'>>,
  ): Promise<void> {
    await this.db.update(dataImports).set(changes).where(eq(dataImports.id, id));
  }

  /** Takes a queued import for one worker, or a running one taken before `staleBefore` (its
   *  worker died); undefined when another has it or it is finished. */
  async claim(id: string, now: Date, staleBefore: Date): Promise<DataImportRow | undefined> {
    const [row] = await this.db
      .update(dataImports)
      .set({ status: 'running', startedAt: now, attempts: sql`${dataImports.attempts} + 1` })
      .where(
        and(
          eq(dataImports.id, id),
          or(
            eq(dataImports.status, 'queued'),
            and(eq(dataImports.status, 'running'), lt(dataImports.startedAt, staleBefore)),
          ),
        ),
      )
      .returning();
    return row;
  }

  /**
   * Which of the entries the member's record already holds: a row of the kind with the entry's
   * id (a record brought back into the account it came from), or a row an earlier import made of
   * the same entry and the member kept.
   */
  async knownSources(
    userId: string,
    entries: readonly { kind: PlannedKind; source: string; id: string | undefined }[],
  ): Promise<Set<string>> {
    const known = new Set<string>();
    if (entries.length === 0) return known;
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    const mapped = await this.db
      .select()
      .from(importedResources)
      .where(
        and(
          eq(importedResources.userId, userId),
          inArray(
            importedResources.source,
            entries.map((entry) => entry.source),
          ),
        ),
      );
    const rowOf = new Map(mapped.map((row) => [row.source, row.rowId]));
    for (const kind of Object.keys(tables) as PlannedKind[]) {
      const ofKind = entries.filter((entry) => entry.kind === kind);
      const candidates = new Set(
        ofKind.flatMap((entry) => [
          ...(entry.id !== undefined && uuid.test(entry.id) ? [entry.id] : []),
          ...(rowOf.has(entry.source) ? [rowOf.get(entry.source) ?? ''] : []),
        ]),
      );
      if (candidates.size === 0) continue;
      const table = tables[kind];
      const present = new Set(
        (
          await this.db
            .select({ id: table.id })
            .from(table)
            .where(and(eq(table.userId, userId), inArray(table.id, [...candidates])))
        ).map((row) => row.id),
      );
      for (const entry of ofKind) {
        if (
          (entry.id !== undefined && present.has(entry.id)) ||
          present.has(rowOf.get(entry.source) ?? '')
        ) {
          known.add(entry.source);
        }
      }
    }
    return known;
  }

  /** Which of the SHA-256 digests (hex) are of a file of the kind the member already has. */
  async knownFiles(
    userId: string,
    kind: PlannedKind,
    digests: readonly string[],
  ): Promise<Set<string>> {
    const keys = fileKeysOf(kind, userId);
    if (keys === undefined || digests.length === 0) return new Set();
    const rows = await this.db
      .select({ sha256: storedFileDigests.sha256 })
      .from(storedFileDigests)
      .where(
        and(
          inArray(storedFileDigests.sha256, [...digests]),
          sql`${storedFileDigests.blobKey} in (${keys})`,
        ),
      );
    return new Set(rows.map((row) => row.sha256));
  }

  /**
   * Writes every row of an import in one transaction, with the record of which entry became
   * which row; `beforeWrite` runs first in it (the storage quota). A failure writes none.
   */
  async insertAll(
    userId: string,
    importId: string,
    rows: readonly ImportedRow[],
    beforeWrite: (tx: Database) => Promise<void>,
  ): Promise<void> {
    // Rows of one moment are listed by id: ids rising in the Bundle's order keep its order.
    const fileCount = rows.reduce(
      (sum, row) => sum + (row.kind === 'medical_record' ? row.files.length : 0),
      0,
    );
    const ids = Array.from({ length: rows.length + fileCount }, () => randomUUID()).sort();
    const nextId = () => ids.shift() ?? randomUUID();
    await this.db.transaction(async (tx) => {
      await beforeWrite(tx);
      const sources: { source: string; kind: PlannedKind; rowId: string }[] = [];
      for (const imported of rows) {
        const rowId = await this.insertOne(tx, userId, imported, nextId);
        sources.push({ source: imported.source, kind: imported.kind, rowId });
      }
      if (sources.length > 0) {
        await tx
          .insert(importedResources)
          .values(sources.map((source) => ({ ...source, userId, importId })))
          // A source imported before whose row the member deleted is mapped to the new row.
          .onConflictDoUpdate({
            target: [importedResources.userId, importedResources.source],
            set: {
              rowId: sql`excluded.row_id`,
              kind: sql`excluded.kind`,
              importId: sql`excluded.import_id`,
            },
          });
      }
    });
  }

  private async insertOne(
    tx: Database,
    userId: string,
    imported: ImportedRow,
    nextId: () => string,
  ): Promise<string> {
    const id = nextId();
    switch (imported.kind) {
      case 'oral_photo':
        await tx.insert(oralPhotos).values({ ...imported.row, id, userId });
        break;
      case 'medical_record':
        await tx.insert(medicalRecords).values({ ...imported.row, id, userId });
        if (imported.files.length > 0) {
          await tx
            .insert(medicalFiles)
            .values(
              imported.files.map((file) => ({ ...file, id: nextId(), userId, recordId: id })),
            );
        }
        break;
      case 'appointment':
        await tx.insert(appointments).values({ ...imported.row, id, userId });
        break;
      case 'dental_ai_result':
        await tx.insert(dentalAiResults).values({ ...imported.row, id, userId });
        break;
    }
    return id;
  }
}
