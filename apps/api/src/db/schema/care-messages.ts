import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './account';
import { timestamptz } from './columns';
import { dentalAiResults } from './dental-ai';

/**
 * A member's conversation with the practice (docs/decisions/care-messages.md): a subject, messages, and what the member
 * attached. Staff read a thread practice-wide; `assignedTo` names who answers it.
 */
export const messageThreads = pgTable(
  'message_threads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    status: text('status', { enum: ['open', 'closed'] })
      .notNull()
      .default('open'),
    /** The staff member who answers it; null while nobody has taken it. */
    assignedTo: uuid('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamptz('created_at').notNull(),
    /** The newest message's time: threads are listed newest first. */
    lastMessageAt: timestamptz('last_message_at').notNull(),
  },
  (table) => [
    index('message_threads_member_id_last_message_at_idx').on(table.memberId, table.lastMessageAt),
    index('message_threads_status_last_message_at_idx').on(table.status, table.lastMessageAt),
  ],
);

/**
 * One message of a thread, plain text. `authorRole` says which side wrote it; each side's read
 * mark is the other side's unread count.
 */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    threadId: uuid('thread_id')
      .notNull()
      .references(() => messageThreads.id, { onDelete: 'cascade' }),
    /** Null once the author's account is gone; the message stays in the member's record. */
    authorId: uuid('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorRole: text('author_role', { enum: ['member', 'staff'] }).notNull(),
    /** The staff author's name as it was when they wrote, shown to the member. */
    authorName: text('author_name').notNull(),
    body: text('body').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    /** When the member first read a staff message (null: unread). */
    memberReadAt: timestamptz('member_read_at'),
    /** When staff first read a member's message (null: unread). */
    staffReadAt: timestamptz('staff_read_at'),
  },
  (table) => [
    index('messages_thread_id_created_at_idx').on(table.threadId, table.createdAt),
    index('messages_unread_by_member_idx')
      .on(table.threadId)
      .where(sql`${table.authorRole} = 'staff' and ${table.memberReadAt} is null`),
    index('messages_unread_by_staff_idx')
      .on(table.threadId)
      .where(sql`${table.authorRole} = 'member' and ${table.staffReadAt} is null`),
  ],
);

/**
 * An item of the member's record attached to a message: staff may read exactly these through the
 * thread, nothing else of the member's. `memberId` is the thread's, kept here so that the check
 * "is this item attached to one of this member's threads" is one index lookup.
 */
export const messageAttachments = pgTable(
  'message_attachments',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    memberId: uuid('member_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['photo', 'record', 'dental_ai'] }).notNull(),
    itemId: uuid('item_id').notNull(),
    position: integer('position').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.messageId, table.kind, table.itemId] }),
    index('message_attachments_member_item_idx').on(table.memberId, table.kind, table.itemId),
  ],
);

/** One finding of a review: a box in the image's pixels and what the dentist made of it. */
export interface StoredReviewFinding {
  /** Which photo of the review the box is on (null for a Dental AI result's one image). */
  photoId: string | null;
  box: [number, number, number, number];
  label: string;
  verdict: 'confirmed' | 'rejected' | 'added';
  /** The index of the Dental AI box judged, null for one the dentist drew. */
  aiBox: number | null;
}

/**
 * A member's request that a dentist review photos or a Dental AI result (docs/decisions/photo-reviews.md), and the
 * answer: a report in plain words and the findings.
 */
export const photoReviews = pgTable(
  'photo_reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    memberId: uuid('member_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Set for a review of a Dental AI result; else the photos are in `photoReviewItems`. */
    dentalAiResultId: uuid('dental_ai_result_id').references(() => dentalAiResults.id, {
      onDelete: 'cascade',
    }),
    question: text('question').notNull(),
    status: text('status', { enum: ['waiting', 'answered'] })
      .notNull()
      .default('waiting'),
    report: text('report'),
    findings: jsonb('findings').$type<StoredReviewFinding[]>(),
    reviewerId: uuid('reviewer_id').references(() => users.id, { onDelete: 'set null' }),
    /** The reviewer's name when they answered, kept if their account goes. */
    reviewerName: text('reviewer_name'),
    createdAt: timestamptz('created_at').notNull(),
    answeredAt: timestamptz('answered_at'),
  },
  (table) => [
    index('photo_reviews_member_id_created_at_idx').on(table.memberId, table.createdAt),
    index('photo_reviews_status_created_at_idx').on(table.status, table.createdAt),
  ],
);

/** The photos or X-rays a review asks about, in the member's order. */
export const photoReviewItems = pgTable(
  'photo_review_items',
  {
    reviewId: uuid('review_id')
      .notNull()
      .references(() => photoReviews.id, { onDelete: 'cascade' }),
    photoId: uuid('photo_id').notNull(),
    position: integer('position').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.reviewId, table.photoId] }),
    index('photo_review_items_photo_id_idx').on(table.photoId),
  ],
);

/**
 * One row per review asked: the uses counted against the plan's yearly reviews, kept apart from
 * the reviews so that deleting one does not give the use back (as `dentalAiUses`).
 */
export const photoReviewUses = pgTable(
  'photo_review_uses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamptz('created_at').notNull(),
  },
  (table) => [index('photo_review_uses_user_id_created_at_idx').on(table.userId, table.createdAt)],
);

/**
 * A member's consent that their reviewed images may improve the models: off unless this row
 * exists; withdrawing deletes it, so the data set command never sees a withdrawn consent.
 */
export const modelTrainingConsents = pgTable('model_training_consents', {
  memberId: uuid('member_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  grantedAt: timestamptz('granted_at').notNull(),
});

export type MessageThreadRow = typeof messageThreads.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type MessageAttachmentRow = typeof messageAttachments.$inferSelect;
export type PhotoReviewRow = typeof photoReviews.$inferSelect;
export type PhotoReviewItemRow = typeof photoReviewItems.$inferSelect;
export type ModelTrainingConsentRow = typeof modelTrainingConsents.$inferSelect;
