import { sql } from 'drizzle-orm';
import type { PushPayload } from '@dental/contracts';
import { rowsOf, type Database } from '../db/client';
import { pushDeliveries, pushSubscriptions, sessions, users } from '../db/schema';

/** A push's text and where it leads; the title (the company's name) is added when it is sent.
 *  Never a health detail (docs/decisions/web-push.md). */
export type PushNotice = Omit<PushPayload, 'title'>;

/** What a feature that writes pushes calls after its commit: the push queue takes them. */
export interface PushQueue {
  afterCommit(): Promise<void>;
}

/**
 * The pushes of one event (`source`: a reminder, a reply, a review, a report) to each device of
 * the member with notifications on, written in the event's transaction (the push outbox). A device
 * whose session ended gets nothing; an event written twice is pushed once (unique key). Answers
 * how many it wrote.
 */
export async function insertPushes(
  db: Database,
  memberId: string,
  source: string,
  notice: PushNotice,
  now: Date,
): Promise<number> {
  const result = await db.execute(sql`
    insert into ${pushDeliveries} (subscription_id, source, body, url, created_at)
    select s.id, ${source}, ${notice.body}, ${notice.url}, ${now}
    from ${pushSubscriptions} s
      join ${sessions} se on se.id = s.session_id
      join ${users} u on u.id = s.user_id
    where s.user_id = ${memberId} and se.ended_at is null and u.deactivated_at is null
    on conflict do nothing
    returning id`);
  return rowsOf(result).length;
}
