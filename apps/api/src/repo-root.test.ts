import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, expect, it } from 'vitest';
import { repoRoot } from './repo-root';

const apiDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// A folder beside apps/api/dist, so the bundle sits where the server's bundle does.
const outdir = mkdtempSync(path.join(apiDir, 'dist-test-'));
afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
});

it('names the repository from source', () => {
  expect(repoRoot).toBe(path.dirname(path.dirname(apiDir)));
});

it('names the same folder once bundled as the server is', async () => {
  const entry = path.join(outdir, 'entry.ts');
  await build({
    stdin: {
      contents: `import { parseEnv } from ${JSON.stringify(path.join(apiDir, 'src/config.ts'))};
        const config = parseEnv({});
        console.log(JSON.stringify({ webDist: config.webDist, contentDir: config.contentDir }));`,
      resolveDir: outdir,
      sourcefile: entry,
      loader: 'ts',
    },
    outfile: path.join(outdir, 'server.js'),
    bundle: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    logLevel: 'silent',
  });
  const printed = execFileSync(process.execPath, [path.join(outdir, 'server.js')], {
    encoding: 'utf8',
  });
  expect(JSON.parse(printed)).toEqual({
    webDist: path.join(repoRoot, 'apps/web/dist'),
    contentDir: path.join(repoRoot, 'content'),
  });
});
