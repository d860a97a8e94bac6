import { and, count, desc, eq, gte, inArray, isNull, lt, ne } from 'drizzle-orm';
import type { ReportKind } from '@dental/contracts';
import type { Database } from '#api/db/client';
import { insertedRow } from '#api/db/inserted-row';
import { reports, type ReportRow } from '#api/db/schema';
import { insertPushes } from '#api/jobs/push-outbox';

/** Reports listed at most: a year's allowances of both kinds, and some failed ones. */
const listLimit = 50;

/** The member's reports that are done and not deleted. */
const doneOf = (userId: string) =>
  and(eq(reports.userId, userId), eq(reports.status, 'done'), isNull(reports.deletedAt));

/** The only code that reads or writes reports. */
export class ReportRepository {
  constructor(readonly db: Database) {}

  /** Runs `work` in one transaction; `tx` is handed on to the plan's use check. */
  transaction<T>(work: (repository: ReportRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new ReportRepository(tx), tx));
  }

  async create(
    values: Pick<ReportRow, 'userId' | 'kind' | 'periodFrom' | 'periodTo' | 'locale' | 'createdAt'>,
  ): Promise<ReportRow> {
    return insertedRow(await this.db.insert(reports).values(values).returning());
  }

  /** Uses of a kind since `since`: every report asked for, deleted ones included, but failed. */
  async countUses(userId: string, kind: ReportKind, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ uses: count() })
      .from(reports)
      .where(
        and(
          eq(reports.userId, userId),
          eq(reports.kind, kind),
          ne(reports.status, 'failed'),
          gte(reports.createdAt, since),
        ),
      );
    return row?.uses ?? 0;
  }

  /** The member's report, unless deleted. */
  async find(userId: string, id: string): Promise<ReportRow | undefined> {
    const [row] = await this.db
      .select()
      .from(reports)
      .where(and(eq(reports.id, id), eq(reports.userId, userId), isNull(reports.deletedAt)));
    return row;
  }

  async list(userId: string): Promise<ReportRow[]> {
    return this.db
      .select()
      .from(reports)
      .where(and(eq(reports.userId, userId), isNull(reports.deletedAt)))
      .orderBy(desc(reports.createdAt), desc(reports.id))
      .limit(listLimit);
  }

  /** The member's reports among `ids` that are done and not deleted. */
  async findManyDone(userId: string, ids: readonly string[]): Promise<ReportRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(reports)
      .where(and(doneOf(userId), inArray(reports.id, [...ids])))
      .orderBy(desc(reports.createdAt), desc(reports.id));
  }

  /** The member's reports finished since `since` that the member has not downloaded, newest
   *  first. */
  async readySince(userId: string, since: Date): Promise<ReportRow[]> {
    return this.db
      .select()
      .from(reports)
      .where(and(doneOf(userId), gte(reports.finishedAt, since), isNull(reports.downloadedAt)))
      .orderBy(desc(reports.finishedAt), desc(reports.id))
      .limit(listLimit);
  }

  /** Notes the first download of the report stored under `blobKey`. */
  async markDownloaded(blobKey: string, at: Date): Promise<void> {
    await this.db
      .update(reports)
      .set({ downloadedAt: at })
      .where(and(eq(reports.blobKey, blobKey), isNull(reports.downloadedAt)));
  }

  /** Takes a queued report for one worker; undefined when it is taken, finished or deleted. */
  async claim(id: string): Promise<ReportRow | undefined> {
    const [row] = await this.db
      .update(reports)
      .set({ status: 'running', progress: 0 })
      .where(and(eq(reports.id, id), eq(reports.status, 'queued'), isNull(reports.deletedAt)))
      .returning();
    return row;
  }

  async progress(id: string, progress: number): Promise<void> {
    await this.db
      .update(reports)
      .set({ progress })
      .where(and(eq(reports.id, id), eq(reports.status, 'running')));
  }

  /** Marks a running report done with its PDF and writes its pushes in the same transaction
   *  (docs/decisions/web-push.md); undefined when it was deleted meanwhile. */
  async finish(
    id: string,
    values: Pick<ReportRow, 'blobKey' | 'sizeBytes'> & { finishedAt: Date },
  ): Promise<ReportRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(reports)
        .set({ ...values, status: 'done', progress: 1 })
        .where(and(eq(reports.id, id), eq(reports.status, 'running'), isNull(reports.deletedAt)))
        .returning();
      if (row !== undefined) {
        await insertPushes(
          tx,
          row.userId,
          `report:${row.id}`,
          { body: 'Your report is ready', url: '/reports' },
          values.finishedAt,
        );
      }
      return row;
    });
  }

  /** A failed report gives its use back. */
  async fail(id: string, finishedAt: Date): Promise<void> {
    await this.db
      .update(reports)
      .set({ status: 'failed', finishedAt })
      .where(and(eq(reports.id, id), inArray(reports.status, ['queued', 'running'])));
  }

  /** Reports queued or running since before `before` lost their job (the process died): they
   *  fail, and give their use back. Deleted ones keep theirs, as every deleted report does. */
  async failAbandoned(before: Date, finishedAt: Date): Promise<number> {
    const rows = await this.db
      .update(reports)
      .set({ status: 'failed', finishedAt })
      .where(
        and(
          inArray(reports.status, ['queued', 'running']),
          lt(reports.createdAt, before),
          isNull(reports.deletedAt),
        ),
      )
      .returning({ id: reports.id });
    return rows.length;
  }

  /** Marks the report deleted and answers it, with the key of its PDF to remove; its use stays
   *  spent. */
  async markDeleted(userId: string, id: string, at: Date): Promise<ReportRow | undefined> {
    const [row] = await this.db
      .update(reports)
      .set({ deletedAt: at })
      .where(and(eq(reports.id, id), eq(reports.userId, userId), isNull(reports.deletedAt)))
      .returning();
    return row;
  }
}
