import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { insertedRow } from '#api/db/inserted-row';
import {
  shareLinkDentalAiResults,
  shareLinkPhotos,
  shareLinkRecords,
  shareLinkReports,
  shareLinks,
  users,
  type ShareLinkRow,
} from '#api/db/schema';

export type NewShareLinkRow = Pick<
  ShareLinkRow,
  'tokenHash' | 'label' | 'passcodeHash' | 'createdAt' | 'expiresAt'
>;

/** The ids of what a link shows. */
export interface ShareLinkItemIds {
  photoIds: readonly string[];
  recordIds: readonly string[];
  dentalAiIds: readonly string[];
  reportIds: readonly string[];
}

/** A link with how many photos, records and Dental AI results it still shows. */
export interface ShareLinkWithCounts extends ShareLinkRow {
  photoCount: number;
  recordCount: number;
  dentalAiCount: number;
  reportCount: number;
}

const shareLinkColumns = {
  id: shareLinks.id,
  userId: shareLinks.userId,
  tokenHash: shareLinks.tokenHash,
  label: shareLinks.label,
  passcodeHash: shareLinks.passcodeHash,
  createdAt: shareLinks.createdAt,
  expiresAt: shareLinks.expiresAt,
  revokedAt: shareLinks.revokedAt,
  views: shareLinks.views,
  lastViewedAt: shareLinks.lastViewedAt,
};

/** The only code that reads or writes share links; the owner's calls are bounded to the owner. */
export class ShareLinkRepository {
  constructor(private readonly db: Database) {}

  /** The link and the items it shows, in one transaction. */
  insert(
    userId: string,
    values: NewShareLinkRow,
    { photoIds, recordIds, dentalAiIds, reportIds }: ShareLinkItemIds,
  ): Promise<ShareLinkRow> {
    return this.db.transaction(async (tx) => {
      const link = insertedRow(
        await tx
          .insert(shareLinks)
          .values({ ...values, userId })
          .returning(),
      );
      if (photoIds.length > 0) {
        await tx
          .insert(shareLinkPhotos)
          .values(photoIds.map((oralPhotoId) => ({ shareLinkId: link.id, oralPhotoId })));
      }
      if (recordIds.length > 0) {
        await tx
          .insert(shareLinkRecords)
          .values(recordIds.map((medicalRecordId) => ({ shareLinkId: link.id, medicalRecordId })));
      }
      if (dentalAiIds.length > 0) {
        await tx
          .insert(shareLinkDentalAiResults)
          .values(
            dentalAiIds.map((dentalAiResultId) => ({ shareLinkId: link.id, dentalAiResultId })),
          );
      }
      if (reportIds.length > 0) {
        await tx
          .insert(shareLinkReports)
          .values(reportIds.map((reportId) => ({ shareLinkId: link.id, reportId })));
      }
      return link;
    });
  }

  /** The member's links, newest first, at most `limit`. */
  list(userId: string, limit: number): Promise<ShareLinkWithCounts[]> {
    return this.db
      .select({
        ...shareLinkColumns,
        photoCount: sql<number>`(select count(*)::int from ${shareLinkPhotos} where ${shareLinkPhotos.shareLinkId} = ${shareLinks.id})`,
        recordCount: sql<number>`(select count(*)::int from ${shareLinkRecords} where ${shareLinkRecords.shareLinkId} = ${shareLinks.id})`,
        dentalAiCount: sql<number>`(select count(*)::int from ${shareLinkDentalAiResults} where ${shareLinkDentalAiResults.shareLinkId} = ${shareLinks.id})`,
        // A deleted report keeps its row, so the count leaves it out. Written out in full: in a
        // select list drizzle names columns without their table, and both tables have an id.
        reportCount: sql<number>`(select count(*)::int from share_link_reports inner join reports on reports.id = share_link_reports.report_id where share_link_reports.share_link_id = share_links.id and reports.deleted_at is null)`,
      })
      .from(shareLinks)
      .where(eq(shareLinks.userId, userId))
      .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id))
      .limit(limit);
  }

  /** Revokes the member's link (a second revocation keeps the first time). */
  async revoke(userId: string, id: string, now: Date): Promise<ShareLinkRow | undefined> {
    const [row] = await this.db
      .update(shareLinks)
      .set({ revokedAt: sql`coalesce(${shareLinks.revokedAt}, ${now.toISOString()}::timestamptz)` })
      .where(and(eq(shareLinks.userId, userId), eq(shareLinks.id, id)))
      .returning();
    return row;
  }

  /** The link with this token hash, whatever its state, if its owner's account is active. */
  async findByTokenHash(tokenHash: string): Promise<ShareLinkRow | undefined> {
    const [row] = await this.db
      .select(shareLinkColumns)
      .from(shareLinks)
      .innerJoin(users, eq(users.id, shareLinks.userId))
      .where(and(eq(shareLinks.tokenHash, tokenHash), isNull(users.deactivatedAt)));
    return row;
  }

  /**
   * Counts one opening, only while the link is neither revoked nor expired: the check and the
   * count are one statement, so concurrent openings all count and none slips past a revocation.
   */
  async countView(id: string, now: Date): Promise<ShareLinkRow | undefined> {
    const [row] = await this.db
      .update(shareLinks)
      .set({ views: sql`${shareLinks.views} + 1`, lastViewedAt: now })
      .where(
        and(eq(shareLinks.id, id), isNull(shareLinks.revokedAt), gt(shareLinks.expiresAt, now)),
      )
      .returning();
    return row;
  }

  /** The owner of the link with this id while it is neither revoked nor expired and the owner's
   *  account is active. */
  async activeOwner(id: string, now: Date): Promise<string | undefined> {
    const [row] = await this.db
      .select({ userId: shareLinks.userId })
      .from(shareLinks)
      .innerJoin(users, eq(users.id, shareLinks.userId))
      .where(
        and(
          eq(shareLinks.id, id),
          isNull(shareLinks.revokedAt),
          gt(shareLinks.expiresAt, now),
          isNull(users.deactivatedAt),
        ),
      );
    return row?.userId;
  }

  /** The ids of the photos, records, Dental AI results and reports the link shows. */
  async items(id: string): Promise<ShareLinkItemIds> {
    const [photos, records, results, linkReports] = await Promise.all([
      this.db
        .select({ id: shareLinkPhotos.oralPhotoId })
        .from(shareLinkPhotos)
        .where(eq(shareLinkPhotos.shareLinkId, id)),
      this.db
        .select({ id: shareLinkRecords.medicalRecordId })
        .from(shareLinkRecords)
        .where(eq(shareLinkRecords.shareLinkId, id)),
      this.db
        .select({ id: shareLinkDentalAiResults.dentalAiResultId })
        .from(shareLinkDentalAiResults)
        .where(eq(shareLinkDentalAiResults.shareLinkId, id)),
      this.db
        .select({ id: shareLinkReports.reportId })
        .from(shareLinkReports)
        .where(eq(shareLinkReports.shareLinkId, id)),
    ]);
    return {
      photoIds: photos.map((row) => row.id),
      recordIds: records.map((row) => row.id),
      dentalAiIds: results.map((row) => row.id),
      reportIds: linkReports.map((row) => row.id),
    };
  }
}
