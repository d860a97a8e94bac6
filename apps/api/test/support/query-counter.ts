import type { Logger } from 'drizzle-orm';
import type { Database } from '#api/db/client';

/**
 * The SQL statements `work` sends through `db`, read from drizzle's query logger (which every
 * statement passes on both PGlite and PostgreSQL). Statements only: a data-modifying CTE and
 * its SELECT are one round trip and count once.
 */
export async function statementsOf(db: Database, work: () => Promise<unknown>): Promise<string[]> {
  const session = db._.session as unknown as { logger: Logger };
  const original = session.logger;
  const statements: string[] = [];
  session.logger = { logQuery: (query) => statements.push(query) };
  try {
    await work();
  } finally {
    session.logger = original;
  }
  return statements;
}
