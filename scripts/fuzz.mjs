// `npm run fuzz -- --runs 100000 [--seed N]`: the API fuzz (docs/decisions/api-fuzz.md) run long,
// on PGlite unless TEST_DB=postgres; its figures are printed at the end.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: { runs: { type: 'string', default: '100000' }, seed: { type: 'string' } },
});
const child = spawn(
  path.join(root, 'node_modules', '.bin', 'vitest'),
  ['run', '--project', 'api', 'apps/api/src/fuzz/openapi-fuzz.int.test.ts'],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      FUZZ_RUNS: values.runs,
      ...(values.seed === undefined ? {} : { FUZZ_SEED: values.seed }),
    },
  },
);
child.on('error', (error) => {
  console.error(`Could not start vitest: ${error.message}`);
  process.exitCode = 1;
});
child.on('close', (code, signal) => {
  process.exitCode = signal ? 1 : (code ?? 1);
});
