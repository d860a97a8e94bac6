import { accountPaths } from '@dental/contracts';
import {
  benchDurationSeconds,
  connections,
  interleavedMedians,
  loggedInMember,
  measure,
  measureBareRoute,
  measureAccountCeiling,
  printComparison,
  startApi,
  withBenchDatabase,
} from './harness';
import { printIssueFigures } from './issue-figures';

const rounds = 3;

/** GET /api/account/ on PostgreSQL next to a bare Fastify route and its ceiling, a bare route
 *  making the same two prepared statements (the goal: ≥ 0.5× of the ceiling, docs/decisions/api-request-cost.md), same run. */
export async function accountBench(): Promise<void> {
  await withBenchDatabase(async (databaseUrl) => {
    const api = await startApi(databaseUrl);
    try {
      const bearer = await loggedInMember(api.url);
      const [ceiling, account, bare] = await interleavedMedians(rounds, [
        () => measureAccountCeiling(databaseUrl),
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
          what: 'GET /api/account/ ÷ bare route with the same 2 prepared statements',
          filed:
            '2,800–3,000 vs 8,300–10,300 requests/s, about 0.3× (an independent run with two prepared round trips)',
          goal: '≥ 0.5×',
        },
      ]);
    } finally {
      await api.close();
    }
  });
}
