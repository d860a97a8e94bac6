import type { TestProject } from 'vitest/node';
import { prepareTestDatabase, type TestDatabaseInfo } from './test-database';

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabaseInfo;
  }
}

/**
 * Runs once per `vitest run --project api`: migrates one database (TEST_DB=pglite, the default,
 * or TEST_DB=postgres on TEST_DATABASE_URL) that every test file copies. A PostgreSQL server
 * that cannot be reached fails the run with how to start one; it is never skipped.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { info, teardown } = await prepareTestDatabase(process.env);
  project.provide('testDatabase', info);
  return teardown;
}
