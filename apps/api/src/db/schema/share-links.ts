import { index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './account';
import { timestamptz } from './columns';
import { dentalAiResults } from './dental-ai';
import { medicalRecords } from './medical-records';
import { oralPhotos } from './oral-photo';
import { reports } from './reports';

/**
 * A member's share links for a dentist (docs/decisions/share-links.md). Only the SHA-256 of the
 * token is kept, so a copy of the database opens no link; the passcode is an argon2id hash.
 * A revoked link keeps its row (the list shows it), with `revokedAt` set.
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    label: text('label').notNull(),
    passcodeHash: text('passcode_hash'),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
    /** Successful openings, counted in the same statement that checks the link still works. */
    views: integer('views').notNull().default(0),
    lastViewedAt: timestamptz('last_viewed_at'),
  },
  (table) => [index('share_links_user_id_created_at_idx').on(table.userId, table.createdAt)],
);
export type ShareLinkRow = typeof shareLinks.$inferSelect;

/** The photos and X-rays a link shows; a deleted photo leaves every link at once. */
export const shareLinkPhotos = pgTable(
  'share_link_photos',
  {
    shareLinkId: uuid('share_link_id')
      .notNull()
      .references(() => shareLinks.id, { onDelete: 'cascade' }),
    oralPhotoId: uuid('oral_photo_id')
      .notNull()
      .references(() => oralPhotos.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.shareLinkId, table.oralPhotoId] }),
    // Deleting a photo looks up the links that show it.
    index('share_link_photos_oral_photo_id_idx').on(table.oralPhotoId),
  ],
);

/** The records a link shows, with all their files; a deleted record leaves every link at once. */
export const shareLinkRecords = pgTable(
  'share_link_records',
  {
    shareLinkId: uuid('share_link_id')
      .notNull()
      .references(() => shareLinks.id, { onDelete: 'cascade' }),
    medicalRecordId: uuid('medical_record_id')
      .notNull()
      .references(() => medicalRecords.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.shareLinkId, table.medicalRecordId] }),
    index('share_link_records_medical_record_id_idx').on(table.medicalRecordId),
  ],
);

/** The Dental AI results a link shows, each with its boxes and image; a deleted result leaves
 *  every link at once. */
export const shareLinkDentalAiResults = pgTable(
  'share_link_dental_ai_results',
  {
    shareLinkId: uuid('share_link_id')
      .notNull()
      .references(() => shareLinks.id, { onDelete: 'cascade' }),
    dentalAiResultId: uuid('dental_ai_result_id')
      .notNull()
      .references(() => dentalAiResults.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.shareLinkId, table.dentalAiResultId] }),
    index('share_link_dental_ai_results_result_id_idx').on(table.dentalAiResultId),
  ],
);

/** The reports a link shows. A deleted report keeps its row (its use stays counted) but leaves
 *  every link at once: reads take only reports that are done and not deleted. */
export const shareLinkReports = pgTable(
  'share_link_reports',
  {
    shareLinkId: uuid('share_link_id')
      .notNull()
      .references(() => shareLinks.id, { onDelete: 'cascade' }),
    reportId: uuid('report_id')
      .notNull()
      .references(() => reports.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.shareLinkId, table.reportId] }),
    index('share_link_reports_report_id_idx').on(table.reportId),
  ],
);
