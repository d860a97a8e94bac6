import { and, asc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import type { OutboxOutcome, OutboxRows } from '#api/jobs/outbox';
import { insertPushes, type PushNotice } from '#api/jobs/push-outbox';
import {
  appointments,
  messageNotices,
  messages,
  messageThreads,
  photoReviews,
  users,
  type MessageNoticeRow,
} from '#api/db/schema';

/** What a notice tells of: a staff reply or an answered review. */
export type NoticeSubject = { messageId: string } | { reviewId: string };

/** What a worker needs to tell the member: where, and the thread or review to link to. */
export interface NoticeDelivery {
  id: string;
  channel: MessageNoticeRow['channel'];
  /** The reply's thread, or null for a review's notice. */
  threadId: string | null;
  /** The answered review, or null for a reply's notice. */
  reviewId: string | null;
  email: string;
  emailConfirmed: boolean;
  phone: string | null;
  deactivated: boolean;
}

/**
 * The notices of a staff reply or a review's answer, written in its transaction (the outbox): an
 * e-mail, an SMS when the member chose SMS alerts for an appointment and has a phone number, and
 * a push to each of the member's devices with notifications on (docs/decisions/web-push.md).
 */
export async function insertNotices(
  db: Database,
  memberId: string,
  subject: NoticeSubject,
  now: Date,
): Promise<string[]> {
  const [member] = await db
    .select({ phone: users.phone })
    .from(users)
    .where(eq(users.id, memberId));
  const smsChosen =
    (member?.phone ?? null) !== null &&
    (await db.$count(
      appointments,
      and(eq(appointments.userId, memberId), eq(appointments.smsAlert, true)),
    )) > 0;
  const channels = smsChosen ? (['email', 'sms'] as const) : (['email'] as const);
  await insertPushes(db, memberId, ...(await pushOf(db, subject)), now);
  const rows = await db
    .insert(messageNotices)
    .values(channels.map((channel) => ({ ...subject, channel, createdAt: now })))
    .returning({ id: messageNotices.id });
  return rows.map((row) => row.id);
}

/** The push's source and text: a reply's links to its thread, an answer's to its review; only
 *  that something came, never the text (docs/decisions/web-push.md). */
async function pushOf(db: Database, subject: NoticeSubject): Promise<[string, PushNotice]> {
  if ('reviewId' in subject) {
    return [
      `review:${subject.reviewId}`,
      { body: 'Your dentist answered your photo review', url: `/reviews/${subject.reviewId}` },
    ];
  }
  const [message] = await db
    .select({ threadId: messages.threadId })
    .from(messages)
    .where(eq(messages.id, subject.messageId));
  if (message === undefined) throw new Error('The reply to tell of is not stored.');
  return [
    `message:${subject.messageId}`,
    {
      body: 'You have a new message from your dental practice',
      url: `/messages/${message.threadId}`,
    },
  ];
}

/** The notice outbox as the job worker sees it: locks, outcomes and the sweep (the reminders'
 *  pattern: docs/decisions/reminder-delivery.md). */
export class MessageNoticeRepository implements OutboxRows<NoticeDelivery> {
  constructor(private readonly db: Database) {}

  /** Runs `work` in one transaction; the row lock taken in it lasts until it ends. */
  transaction<T>(work: (repository: MessageNoticeRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new MessageNoticeRepository(tx)));
  }

  /** Locks the pending notice unless another transaction holds it (SKIP LOCKED): of two
   *  workers exactly one gets it, and a worker that dies releases it with its connection. */
  async lockPending(id: string): Promise<NoticeDelivery | undefined> {
    const [row] = await this.db
      .select({
        id: messageNotices.id,
        channel: messageNotices.channel,
        threadId: messages.threadId,
        reviewId: messageNotices.reviewId,
        email: users.email,
        phone: users.phone,
        deactivatedAt: users.deactivatedAt,
        emailConfirmedAt: users.emailConfirmedAt,
      })
      .from(messageNotices)
      .leftJoin(messages, eq(messages.id, messageNotices.messageId))
      .leftJoin(messageThreads, eq(messageThreads.id, messages.threadId))
      .leftJoin(photoReviews, eq(photoReviews.id, messageNotices.reviewId))
      .innerJoin(
        users,
        eq(users.id, sql`coalesce(${messageThreads.memberId}, ${photoReviews.memberId})`),
      )
      .where(and(eq(messageNotices.id, id), eq(messageNotices.status, 'pending')))
      .for('update', { of: messageNotices, skipLocked: true });
    if (row === undefined) return undefined;
    const { deactivatedAt, emailConfirmedAt, ...delivery } = row;
    return {
      ...delivery,
      deactivated: deactivatedAt !== null,
      emailConfirmed: emailConfirmedAt !== null,
    };
  }

  async isPending(id: string): Promise<boolean> {
    const [row] = await this.db
      .select({ status: messageNotices.status })
      .from(messageNotices)
      .where(eq(messageNotices.id, id));
    return row?.status === 'pending';
  }

  /** Records how a notice ended; only a pending one changes, so an outcome is written once. */
  async finish(id: string, outcome: OutboxOutcome, detail: string | null, now: Date) {
    await this.db
      .update(messageNotices)
      .set({
        status: outcome,
        outcome: detail,
        attempts: sql`${messageNotices.attempts} + 1`,
        ...(outcome === 'sent' ? { sentAt: now } : {}),
      })
      .where(and(eq(messageNotices.id, id), eq(messageNotices.status, 'pending')));
  }

  async countFailedAttempt(id: string): Promise<void> {
    await this.db
      .update(messageNotices)
      .set({ attempts: sql`${messageNotices.attempts} + 1` })
      .where(and(eq(messageNotices.id, id), eq(messageNotices.status, 'pending')));
  }

  /** Pending notices whose job was never queued (the process stopped right after the reply). */
  unqueued(createdBefore: Date, limit: number): Promise<{ id: string }[]> {
    return this.db
      .select({ id: messageNotices.id })
      .from(messageNotices)
      .where(
        and(
          eq(messageNotices.status, 'pending'),
          isNull(messageNotices.queuedAt),
          lt(messageNotices.createdAt, createdBefore),
        ),
      )
      .orderBy(asc(messageNotices.createdAt))
      .limit(limit);
  }

  async markQueued(ids: readonly string[], now: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .update(messageNotices)
      .set({ queuedAt: now })
      .where(and(inArray(messageNotices.id, [...ids]), isNull(messageNotices.queuedAt)));
  }
}
