import { desc, eq } from 'drizzle-orm';
import { auditEvents } from '#api/db/schema';
import type { TestApp } from '../build-test-app';

/** The member's latest audit row, to check what a request left in their account activity. */
export async function newestAuditRow(t: Pick<TestApp, 'db'>, memberId: string) {
  const [row] = await t.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.memberId, memberId))
    .orderBy(desc(auditEvents.seq))
    .limit(1);
  return row;
}
