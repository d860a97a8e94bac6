// Start time and idle memory of the server as `npm start` runs it (compiled JavaScript) and as it
// ran before (the TypeScript source through tsx), on PGlite and on PostgreSQL. The build is done
// beforehand and not timed: this measures the restart of an unchanged checkout.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, staleReason, targets } from '../scripts/build.mjs';
import { withBenchDatabase } from './harness';
import { median } from './median';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Starts per variant and database (BENCH_START_RUNS); the median is printed. */
const runs = Math.min(20, Math.max(1, Number(process.env.BENCH_START_RUNS ?? 5)));
/** How long the server idles before its memory is read (BENCH_IDLE_SECONDS). */
const idleSeconds = Math.min(120, Math.max(1, Number(process.env.BENCH_IDLE_SECONDS ?? 10)));

interface Variant {
  label: string;
  args: string[];
}

/** `npm start`'s own command line (its Node.js options included), run without npm around it. */
async function npmStartArgs(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const [command, ...args] = manifest.scripts.start.split(' ');
  if (command !== 'node') throw new Error(`npm start runs ${command}, not node.`);
  return args;
}

const variants: Variant[] = [
  { label: 'npm start (compiled)', args: await npmStartArgs() },
  { label: 'tsx source (before)', args: ['--import', 'tsx', 'apps/api/src/server.ts'] },
];

interface StartFigures {
  upSeconds: number;
  idleRssMb: number;
}

/** Resident memory of a process (Linux); the server runs in the one process it was started as. */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  if (kb === undefined) throw new Error(`No VmRSS for process ${pid}.`);
  return Math.round(Number(kb) / 1024);
}

/** One start: time until the banner says it is running, then memory after idling. */
async function startOnce(variant: Variant, env: Record<string, string>): Promise<StartFigures> {
  const started = performance.now();
  const child = spawn(process.execPath, variant.args, {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  try {
    const upSeconds = await new Promise<number>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(' is running at ')) resolve((performance.now() - started) / 1000);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => {
        reject(new Error(`${variant.label} exited with ${code} before listening:\n${output}`));
      });
    });
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    return { upSeconds, idleRssMb: await rssMb(child.pid ?? 0) };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

/** The first start of a fresh DATA_DIR, then `runs` restarts of it. */
async function measureVariant(variant: Variant, database: 'PGlite' | 'PostgreSQL', url?: string) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dental-start-bench-'));
  const env = { DATA_DIR: dataDir, ...(url === undefined ? {} : { DATABASE_URL: url }) };
  try {
    const first = await startOnce(variant, env);
    const restarts: StartFigures[] = [];
    for (let run = 0; run < runs; run += 1) restarts.push(await startOnce(variant, env));
    const upSeconds = median(restarts.map((figures) => figures.upSeconds));
    const idleRssMb = Math.round(median(restarts.map((figures) => figures.idleRssMb)));
    console.log(
      `${variant.label.padEnd(22)} ${database.padEnd(11)} first start ${first.upSeconds.toFixed(1).padStart(5)} s, ${String(first.idleRssMb).padStart(4)} MB idle │ restart (median of ${runs}) ${upSeconds.toFixed(1).padStart(5)} s, ${String(idleRssMb).padStart(4)} MB idle`,
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function startBench(): Promise<void> {
  const stale = targets.filter((target) => staleReason(target) !== undefined);
  if (stale.length > 0) await build(stale);
  console.log(
    `Node.js ${process.version}; idle memory read after ${idleSeconds} s (VmRSS); time to the banner.`,
  );
  for (const variant of variants) {
    await measureVariant(variant, 'PGlite');
    await withBenchDatabase((url) => measureVariant(variant, 'PostgreSQL', url));
  }
}
