import { accountPaths } from '@dental/contracts';
import {
  benchDurationSeconds,
  connections,
  loggedInMember,
  measure,
  measureBareRoute,
  measureCeilingRoute,
  printComparison,
  startApi,
  withBenchDatabase,
} from './harness';

/** GET /api/account/ on PostgreSQL next to a bare Fastify route and the ceiling of a route that
 *  makes three raw queries (issue 17: goal ≥ 0.5× of the ceiling), same run. */
export async function accountBench(): Promise<void> {
  await withBenchDatabase(async (databaseUrl) => {
    const api = await startApi(databaseUrl);
    try {
      const bearer = await loggedInMember(api.url);
      const account = await measure(
        'GET /api/account/',
        `${api.url}${accountPaths.account}`,
        bearer,
      );
      const bare = await measureBareRoute();
      const ceiling = await measureCeilingRoute(databaseUrl);
      printComparison(
        `Account API on PostgreSQL, ${connections} connections, ${benchDurationSeconds} s each, 127.0.0.1`,
        ceiling,
        [account, bare],
      );
    } finally {
      await api.close();
    }
  });
}
