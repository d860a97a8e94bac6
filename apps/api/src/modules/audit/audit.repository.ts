import {
  and,
  asc,
  desc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNotNull,
  isNull,
  lt,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { AuditResourceType } from '@dental/contracts';
import type { Database } from '#api/db/client';
import { insertedRow } from '#api/db/inserted-row';
import {
  auditEvents,
  complaintImages,
  complaints,
  dataExports,
  dentalAiResults,
  medicalFiles,
  medicalRecords,
  oralPhotos,
  reports,
  reservations,
  users,
  type AuditEventRow,
} from '#api/db/schema';
import { auditHash, type HashedFields } from './audit-hash';

/** An actor that is a member's id (docs/decisions/proxy-access.md). */
const uuidPattern = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

type ActorRole = (typeof users.$inferSelect)['role'];

/** Namespaces the per-member advisory locks apart from every other lock of the application. */
const chainLockClass = 4_110_311;

export type NewAuditEvent = Omit<HashedFields, 'seq'>;

interface QueuedAppend {
  event: NewAuditEvent;
  resolve: (row: AuditEventRow) => void;
  reject: (error: unknown) => void;
}

/** The most appends one transaction writes; a longer queue is written in turns. */
const maxAppendBatch = 100;

/** Which stored file a blob key is, and whose. */
export interface FileSubject {
  memberId: string;
  resourceType: AuditResourceType;
  resourceId: string;
}

const sameChain = (memberId: string | null): SQL =>
  memberId === null ? isNull(auditEvents.memberId) : eq(auditEvents.memberId, memberId);

/** The only code that writes or reads the audit trail. It never updates or deletes a row. */
export class AuditRepository {
  constructor(private readonly db: Database) {}

  /**
   * Appends a row to its member's chain, and resolves once it is committed. Appends of one chain
   * that arrive while that chain's last batch is being written are committed together, in order,
   * by the next batch (group commit): a member's concurrent reads then share one lock, one
   * commit and one flush instead of queueing for one each (docs/decisions/audit-trail.md).
   */
  append(event: NewAuditEvent): Promise<AuditEventRow> {
    return new Promise((resolve, reject) => {
      const chain = event.memberId ?? '';
      const queue = this.queued.get(chain) ?? [];
      queue.push({ event, resolve, reject });
      this.queued.set(chain, queue);
      if (!this.writing.has(chain)) void this.writeQueued(chain);
    });
  }

  private readonly queued = new Map<string, QueuedAppend[]>();
  /** Chains that have a batch being written by this process. */
  private readonly writing = new Set<string>();

  private async writeQueued(chain: string): Promise<void> {
    this.writing.add(chain);
    try {
      for (
        let queue = this.queued.get(chain);
        queue !== undefined;
        queue = this.queued.get(chain)
      ) {
        const batch = queue.splice(0, maxAppendBatch);
        if (queue.length === 0) this.queued.delete(chain);
        try {
          const rows = await this.appendBatch(batch.map(({ event }) => event));
          for (const [index, row] of rows.entries()) batch[index]?.resolve(row);
        } catch (error) {
          // One bad event must not fail the others: with more than one, each is tried alone.
          for (const { event, resolve, reject } of batch) {
            if (batch.length === 1) reject(error);
            else
              await this.appendBatch([event]).then((rows) => {
                rows.forEach(resolve);
              }, reject);
          }
        }
      }
    } finally {
      this.writing.delete(chain);
    }
  }

  /**
   * Appends events of one chain in one transaction. Writers of the chain in every process take
   * turns on an advisory lock held until the commit, so two of them never chain to the same
   * previous row.
   */
  private appendBatch(events: NewAuditEvent[]): Promise<AuditEventRow[]> {
    return this.db.transaction((tx) => AuditRepository.chain(tx, events));
  }

  /**
   * Appends a row in the caller's transaction, so that it commits or rolls back with the change
   * it records; the chain's advisory lock is then held until that transaction ends.
   */
  async appendWithin(tx: Database, event: NewAuditEvent): Promise<AuditEventRow> {
    return insertedRow(await AuditRepository.chain(tx, [event]));
  }

  /** Chains events of one member after the chain's last row, under its advisory lock; call in
   *  a transaction. */
  private static async chain(tx: Database, events: NewAuditEvent[]): Promise<AuditEventRow[]> {
    const memberId = events[0]?.memberId ?? null;
    await tx.execute(
      sql`select pg_advisory_xact_lock(${chainLockClass}, hashtext(${memberId ?? ''}))`,
    );
    const [last] = await tx
      .select({ seq: auditEvents.seq, hash: auditEvents.hash })
      .from(auditEvents)
      .where(sameChain(memberId))
      .orderBy(desc(auditEvents.seq))
      .limit(1);
    const lastSeq = last?.seq ?? 0;
    let prevHash = last?.hash ?? null;
    const rows = events.map((event, index) => {
      const row: HashedFields = { ...event, seq: lastSeq + 1 + index };
      const chained = { ...row, prevHash, hash: auditHash(prevHash, row) };
      prevHash = chained.hash;
      return chained;
    });
    const inserted = await tx.insert(auditEvents).values(rows).returning();
    const byId = new Map(inserted.map((row) => [row.id, row]));
    return rows.map(({ id }) => insertedRow([byId.get(id)].filter((row) => row !== undefined)));
  }

  /** Whether the member signed in successfully before from this exact user agent. */
  async signedInBefore(memberId: string, userAgent: string | null): Promise<boolean> {
    const [row] = await this.db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.memberId, memberId),
          or(eq(auditEvents.action, 'sign_in'), eq(auditEvents.action, 'sign_in_new_browser')),
          eq(auditEvents.result, 'success'),
          userAgent === null ? isNull(auditEvents.userAgent) : eq(auditEvents.userAgent, userAgent),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  /** The member's rows, newest first, before position `beforeSeq` when given; with the name of
   *  another member who acted (a delegate, docs/decisions/proxy-access.md). */
  page(
    memberId: string,
    beforeSeq: number | undefined,
    limit: number,
  ): Promise<(AuditEventRow & { actorName: string | null; actorRole: ActorRole | null })[]> {
    return this.db
      .select({ ...getTableColumns(auditEvents), actorName: users.username, actorRole: users.role })
      .from(auditEvents)
      .leftJoin(
        users,
        and(
          // Compared as uuids so the users key is used; other actors ('signed link') are no id.
          sql`${users.id} = (case when ${auditEvents.actor} ~* ${uuidPattern} then ${auditEvents.actor}::uuid end)`,
          sql`${auditEvents.actor} <> ${auditEvents.memberId}::text`,
        ),
      )
      .where(
        and(
          eq(auditEvents.memberId, memberId),
          beforeSeq === undefined ? undefined : lt(auditEvents.seq, beforeSeq),
        ),
      )
      .orderBy(desc(auditEvents.seq))
      .limit(limit);
  }

  /** The dates of the items staff rows name, by id: a photo's shoot date, a record's date (for
   *  a record file, its record's), a consultation's day in the patient's zone. */
  async itemDates(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const list = [...ids];
    const [photos, records, files, bookings, dentalAi] = await Promise.all([
      this.db
        .select({ id: oralPhotos.id, date: oralPhotos.shootDate })
        .from(oralPhotos)
        .where(inArray(oralPhotos.id, list)),
      this.db
        .select({ id: medicalRecords.id, date: medicalRecords.recordDate })
        .from(medicalRecords)
        .where(inArray(medicalRecords.id, list)),
      this.db
        .select({ id: medicalFiles.id, date: medicalRecords.recordDate })
        .from(medicalFiles)
        .innerJoin(medicalRecords, eq(medicalRecords.id, medicalFiles.recordId))
        .where(inArray(medicalFiles.id, list)),
      this.db
        .select({
          id: reservations.id,
          date: sql<string>`to_char(${reservations.reservationTime} at time zone ${reservations.timeZone}, 'YYYY-MM-DD')`,
        })
        .from(reservations)
        .where(inArray(reservations.id, list)),
      this.db
        .select({
          id: dentalAiResults.id,
          date: sql<string>`to_char(${dentalAiResults.createdAt} at time zone 'UTC', 'YYYY-MM-DD')`,
        })
        .from(dentalAiResults)
        .where(inArray(dentalAiResults.id, list)),
    ]);
    return new Map(
      [...photos, ...records, ...files, ...bookings, ...dentalAi].map((row) => [row.id, row.date]),
    );
  }

  /**
   * Every row in chain order (the members' chains, then the chain of events without a member),
   * `batch` at a time, so that checking a large trail does not hold it all in memory. Each batch
   * starts after the last row read, as a range of the (member, seq) index: one index scan a batch,
   * where a condition the index cannot range over sorted the whole table for each one
   * (docs/decisions/scale-bench.md).
   */
  async *allInChainOrder(batch = 1000): AsyncGenerator<AuditEventRow> {
    let after: { memberId: string; seq: number } | null = null;
    for (;;) {
      const rows: AuditEventRow[] = await this.db
        .select()
        .from(auditEvents)
        .where(
          after === null
            ? isNotNull(auditEvents.memberId)
            : sql`(${auditEvents.memberId}, ${auditEvents.seq}) > (${after.memberId}::uuid, ${after.seq})`,
        )
        .orderBy(asc(auditEvents.memberId), asc(auditEvents.seq))
        .limit(batch);
      yield* rows;
      const last = rows.at(-1);
      if (last?.memberId == null || rows.length < batch) break;
      after = { memberId: last.memberId, seq: last.seq };
    }
    yield* this.chainInOrder(null, batch);
  }

  /**
   * One member's chain (null: the chain of events without a member) in order, `batch` rows at a
   * time, each batch a range of the (member, seq) index: reads that chain's rows and no others.
   */
  async *chainInOrder(memberId: string | null, batch = 1000): AsyncGenerator<AuditEventRow> {
    let afterSeq = 0;
    for (;;) {
      const rows = await this.db
        .select()
        .from(auditEvents)
        .where(and(sameChain(memberId), gt(auditEvents.seq, afterSeq)))
        .orderBy(asc(auditEvents.seq))
        .limit(batch);
      yield* rows;
      const last = rows.at(-1);
      if (last === undefined || rows.length < batch) return;
      afterSeq = last.seq;
    }
  }

  /** The stored file a signed link names, with its owner; undefined when no row refers to it. */
  async fileByKey(key: string): Promise<FileSubject | undefined> {
    // PostgreSQL text cannot hold NUL, so no stored key has one, and a query with one fails.
    if (key.includes('\0')) return undefined;
    const [photo] = await this.db
      .select({ memberId: oralPhotos.userId, id: oralPhotos.id, type: oralPhotos.photoType })
      .from(oralPhotos)
      .where(
        or(
          eq(oralPhotos.blobKey, key),
          eq(oralPhotos.thumbnailKey, key),
          eq(oralPhotos.originalKey, key),
        ),
      );
    if (photo !== undefined) {
      const resourceType = photo.type === 'X-ray' ? 'x_ray' : 'photo';
      return { memberId: photo.memberId, resourceType, resourceId: photo.id };
    }
    const [file] = await this.db
      .select({ memberId: medicalFiles.userId, id: medicalFiles.id })
      .from(medicalFiles)
      .where(eq(medicalFiles.blobKey, key));
    if (file !== undefined) {
      return { memberId: file.memberId, resourceType: 'medical_file', resourceId: file.id };
    }
    const [result] = await this.db
      .select({ memberId: dentalAiResults.userId, id: dentalAiResults.id })
      .from(dentalAiResults)
      .where(eq(dentalAiResults.blobKey, key));
    if (result !== undefined) {
      return { memberId: result.memberId, resourceType: 'dental_ai_result', resourceId: result.id };
    }
    const [archive] = await this.db
      .select({ memberId: dataExports.userId, id: dataExports.id })
      .from(dataExports)
      .where(eq(dataExports.blobKey, key));
    if (archive !== undefined) {
      return { memberId: archive.memberId, resourceType: 'data_export', resourceId: archive.id };
    }
    const [report] = await this.db
      .select({ memberId: reports.userId, id: reports.id })
      .from(reports)
      .where(eq(reports.blobKey, key));
    if (report !== undefined) {
      return { memberId: report.memberId, resourceType: 'report', resourceId: report.id };
    }
    const [image] = await this.db
      .select({ memberId: reservations.userId, id: complaintImages.id })
      .from(complaintImages)
      .innerJoin(complaints, eq(complaints.id, complaintImages.complaintId))
      .innerJoin(reservations, eq(reservations.id, complaints.reservationId))
      .where(eq(complaintImages.blobKey, key));
    return image === undefined
      ? undefined
      : { memberId: image.memberId, resourceType: 'consultation_image', resourceId: image.id };
  }
}
