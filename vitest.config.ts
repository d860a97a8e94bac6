import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import react from '@vitejs/plugin-react';

// These start the server as its own process on its embedded PGlite in a DATA_DIR, or test PGlite
// itself, whatever TEST_DB names: the PostgreSQL run of the api project would repeat them unchanged.
const embeddedDatabaseOnly = [
  'apps/api/src/server.int.test.ts',
  'apps/api/src/db/data-dir.int.test.ts',
  'apps/api/src/db/pglite.int.test.ts',
  'apps/api/src/clinic-command/channel.int.test.ts',
];

// Files that spend most of their time waiting on real time: workers racing for jobs due in a few
// seconds, reminders due at their minute (PostgreSQL runs the races; PGlite skips them). Vitest
// starts the largest files first when it has no timings of an earlier run, as on a clean clone,
// which left these small ones to the end with one worker busy and the other idle: on PostgreSQL
// the races alone took the last two minutes. Started first, they wait while the other files run.
// Files that start servers as processes are not on the list: they keep the cores busy, and two of
// them started together made the PGlite tier slower (docs/decisions/test-orchestrator.md).
const waitsOnRealTime = [/-race\.int\.test\.ts$/, /\/appointments\/reminders\.int\.test\.ts$/];

class RealTimeWaitsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const waits = (file: TestSpecification) =>
      waitsOnRealTime.some((pattern) => pattern.test(file.moduleId));
    return [...sorted.filter(waits), ...sorted.filter((file) => !waits(file))];
  }
}

// One runner, three projects: `unit` (pure code and components), `api` (integration
// through the HTTP API against a real database chosen by TEST_DB=pglite|postgres).
export default defineConfig({
  test: {
    // Vitest keeps a core for itself by default, which on two cores means one worker; the tests
    // spend much of their time waiting on jsdom, the database and child processes, so a worker per
    // core halves the unit tier and cuts the API tiers by 40 % here.
    maxWorkers: availableParallelism(),
    sequence: { sequencer: RealTimeWaitsFirst },
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/api/src/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          setupFiles: ['apps/web/src/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'api',
          environment: 'node',
          include: ['apps/api/src/**/*.int.test.ts'],
          exclude: [
            '**/node_modules/**',
            ...(process.env.TEST_DB === 'postgres' ? embeddedDatabaseOnly : []),
          ],
          globalSetup: ['apps/api/test/global-setup.ts'],
          setupFiles: ['apps/api/test/setup.ts'],
          // Each file builds its own app over its own database copy, and the API keeps no state
          // in modules, so a worker loads the app's modules once for all its files instead of
          // once per file: the import was half of this tier's time.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
