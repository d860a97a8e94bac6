import { accountPaths } from '@dental/contracts';
import {
  benchDurationSeconds,
  connections,
  interleavedMedians,
  loggedInMember,
  measure,
  measureBareRoute,
  measureCeilingRoute,
  printComparison,
  startApi,
  withBenchDatabase,
} from './harness';
import { printIssueFigures } from './issue-figures';

const rounds = 3;

/** GET /api/account/ on PostgreSQL next to a bare Fastify route and the ceiling of a route that
 *  makes three raw queries (the performance review's goal: ≥ 0.5× of the ceiling), same run. */
export async function accountBench(): Promise<void> {
  await withBenchDatabase(async (databaseUrl) => {
    const api = await startApi(databaseUrl);
    try {
      const bearer = await loggedInMember(api.url);
      const [ceiling, account, bare] = await interleavedMedians(rounds, [
        () => measureCeilingRoute(databaseUrl),
        () => measure('GET /api/account/', `${api.url}${accountPaths.account}`, bearer),
        measureBareRoute,
      ]);
      printComparison(
        `Account API on PostgreSQL, ${connections} connections, ${benchDurationSeconds} s each, median of ${rounds} interleaved rounds, 127.0.0.1`,
        ceiling,
        [account, bare],
      );
      printIssueFigures('Performance review', [
        {
          what: 'GET /api/account/ ÷ bare route with 3 pg queries',
          filed: '1,368–1,394 vs 9,340–9,593 requests/s, 0.15×',
          goal: '≥ 0.5×',
        },
      ]);
    } finally {
      await api.close();
    }
  });
}
