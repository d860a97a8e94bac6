import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main as clinic } from '../cli/clinic';
import { loadConfig } from '../config';
import { databaseTarget, openDatabase } from './client';
import { DataDirError, lockDataDir, lockFileName, protectDataDir } from './data-dir';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const tokenSecret = randomBytes(32).toString('base64url');

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'dental-data-dir-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Runs a TypeScript entry point of this repository as its own process. */
function start(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', TOKEN_SECRET: tokenSecret, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function outputOf(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

/** A process that opens the embedded database in `dataDir` the way every entry point does. */
async function holdDatabase(dataDir: string): Promise<ChildProcess> {
  const script = `
    import { loadConfig } from './apps/api/src/config.ts';
    import { databaseTarget, openDatabase } from './apps/api/src/db/client.ts';
    await openDatabase(databaseTarget(loadConfig(process.env)));
    process.stdout.write('open\\n');
    setInterval(() => {}, 60_000);`;
  const child = start(['--input-type=module', '--eval', script], { DATA_DIR: dataDir });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('open')) resolve();
    });
    child.once('exit', () => {
      reject(new Error(`The holder exited: ${stderr}`));
    });
  });
  return child;
}

describe('the DATA_DIR lock', () => {
  it('refuses a second server on the folder, naming it and the holder; a holder killed with -9 does not block the next start', async () => {
    const dataDir = path.join(tmp, 'shared');
    const holder = await holdDatabase(dataDir);
    try {
      const second = await outputOf(
        start(['apps/api/src/server.ts'], { DATA_DIR: dataDir, PORT: '0' }),
      );
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(
        `DATA_DIR ${dataDir} is in use by process ${String(holder.pid)} on ${hostname()}`,
      );
    } finally {
      holder.kill('SIGKILL');
      await once(holder, 'exit').catch(() => undefined);
    }
    // The dead holder's lock file is still there, and is taken over.
    expect(await readdir(dataDir)).toContain(lockFileName);
    const lines: string[] = [];
    const errors: string[] = [];
    const code = await clinic(
      ['doctors', 'list'],
      { DATA_DIR: dataDir, TOKEN_SECRET: tokenSecret },
      (line) => lines.push(line),
      (line) => errors.push(line),
    );
    expect(errors).toEqual([]);
    expect(code).toBe(0);
    // Released on close.
    expect(await readdir(dataDir)).not.toContain(lockFileName);
  }, 400_000);

  it('refuses a second open in the same process and allows one after the first closes', async () => {
    const dataDir = path.join(tmp, 'in-process');
    const config = loadConfig({ DATA_DIR: dataDir, TOKEN_SECRET: tokenSecret });
    const first = await openDatabase(databaseTarget(config));
    await expect(openDatabase(databaseTarget(config))).rejects.toThrow(DataDirError);
    await first.close();
    const again = await openDatabase(databaseTarget(config));
    await again.close();
  }, 300_000);

  it('takes over a lock whose process is gone, and one left garbled', async () => {
    const dataDir = path.join(tmp, 'stale');
    await mkdir(dataDir, { mode: 0o700 });
    const dead = start(['--eval', ''], {});
    await outputOf(dead);
    const file = path.join(dataDir, lockFileName);
    await writeFile(
      file,
      JSON.stringify({ pid: dead.pid, host: hostname(), startedAt: '', command: 'x' }),
    );
    lockDataDir(dataDir).release();
    // A holder killed between creating the file and writing it; one being written is younger.
    await writeFile(file, '{"pid":');
    const old = new Date(Date.now() - 60_000);
    await utimes(file, old, old);
    lockDataDir(dataDir).release();
  }, 60_000);
});

describe('DATA_DIR permissions', () => {
  it('creates DATA_DIR owner-only and the embedded database files 0600', async () => {
    const dataDir = path.join(tmp, 'fresh');
    const child = start(
      [
        '--input-type=module',
        '--eval',
        `import { loadConfig } from './apps/api/src/config.ts';
         import { databaseTarget, openDatabase } from './apps/api/src/db/client.ts';
         const db = await openDatabase(databaseTarget(loadConfig(process.env)));
         await db.close();`,
      ],
      { DATA_DIR: dataDir },
    );
    const { code, stderr } = await outputOf(child);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(dataDir, 'pg'))).mode & 0o077).toBe(0);
    const pgFiles = await readdir(path.join(dataDir, 'pg'), { recursive: true });
    const files = await Promise.all(
      pgFiles.map(async (name) => stat(path.join(dataDir, 'pg', name))),
    );
    expect(files.filter((file) => file.isFile()).length).toBeGreaterThan(10);
    expect(files.filter((file) => (file.mode & 0o077) !== 0)).toEqual([]);
  }, 300_000);

  it('refuses a DATA_DIR that group or others can read, saying how to fix it', async () => {
    const dataDir = path.join(tmp, 'open-to-all');
    await mkdir(dataDir);
    await chmod(dataDir, 0o755);
    expect(() => {
      protectDataDir(dataDir);
    }).toThrow(`run \`chmod 700 ${dataDir}\``);
    const child = start(['apps/api/src/server.ts'], { DATA_DIR: dataDir, PORT: '0' });
    const { code, stderr } = await outputOf(child);
    expect(code).toBe(1);
    expect(stderr).toContain(`DATA_DIR ${dataDir} can be read or written by other users`);
  }, 60_000);
});
