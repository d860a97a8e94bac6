import { describe, expect, inject, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import { messageNotices } from '#api/db/schema';
import { staffFactories } from '#api-test/staff';
import { answeredReview } from '#api-test/support/answered-review';
import { deliveriesPer, noticeRaceTests, noticeWorkers } from '#api-test/support/notice-workers';

/**
 * Answered reviews' notices with worker processes racing on one database, and one killed between
 * handing a notice to the mail server and recording it, as reply notices are tested
 * (docs/decisions/photo-reviews.md). Separate processes cannot share an embedded PGlite
 * database: PostgreSQL pass only.
 */
describe.runIf(inject('testDatabase').kind === 'postgres')(
  'review notices with worker processes',
  () => {
    const setting = noticeWorkers();
    const link = (reviewId: string) => `/reviews/${reviewId}`;

    /** `count` reviews of new members, each answered by a practitioner. */
    async function answers(count: number) {
      const dentist = await staffFactories(setting.t).staff('practitioner');
      const reviewIds: string[] = [];
      for (let index = 0; index < count; index++) {
        reviewIds.push((await answeredReview(setting.t, setting.api, dentist)).reviewId);
      }
      return { linkIds: reviewIds, rows: inArray(messageNotices.reviewId, reviewIds) };
    }

    noticeRaceTests(setting, answers, link);

    it('send a notice once when two deliveries of it run at the same moment', async () => {
      const { linkIds, rows } = await answers(1);
      const [notice] = await setting.t.db
        .select({ id: messageNotices.id })
        .from(messageNotices)
        .where(rows);
      const id = notice?.id ?? '';
      // As when the queue hands a job again to a second worker while the first still sends it.
      const outcomes = await Promise.allSettled([
        setting.api.messageNotices.deliver(id, false),
        setting.api.messageNotices.deliver(id, false),
      ]);
      const [row] = await setting.t.db
        .select({ status: messageNotices.status })
        .from(messageNotices)
        .where(rows);
      expect(row?.status).toBe('sent');
      expect(deliveriesPer(linkIds, setting.smtp.messages, link)).toEqual([1]);
      // The one that found the row held says so, and the queue retries it into a no-op.
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(1);
    });
  },
);
