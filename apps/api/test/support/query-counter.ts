import type { Logger } from 'drizzle-orm';
import type { Database } from '#api/db/client';

/**
 * The SQL statements `work` sends through `db`, read from drizzle's query logger (which every
 * statement passes on both PGlite and PostgreSQL). Statements only: a data-modifying CTE and
 * its SELECT are one round trip and count once.
 */
export async function statementsOf(db: Database, work: () => Promise<unknown>): Promise<string[]> {
  // Prepared statements keep the logger object they were built with, so its method is swapped
  // in place rather than the object replaced.
  const { logger } = db._.session as unknown as { logger: Logger };
  const original = Object.getOwnPropertyDescriptor(logger, 'logQuery');
  const statements: string[] = [];
  logger.logQuery = (query) => statements.push(query);
  try {
    await work();
  } finally {
    if (original === undefined) Reflect.deleteProperty(logger, 'logQuery');
    else Object.defineProperty(logger, 'logQuery', original);
  }
  return statements;
}
