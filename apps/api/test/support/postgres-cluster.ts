import { execFile, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';

const run = promisify(execFile);

/** A PostgreSQL server of its own, to be restarted without disturbing anyone else's. */
export interface PostgresCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres (trust authentication, loopback only). */
  url: string;
  /** `pg_ctl restart -m fast`: every connection is terminated (57P01), the server comes back. */
  restart(): Promise<void>;
  /** `pg_ctl stop -m immediate`: the server dies as in a crash; start() recovers it. */
  stopImmediately(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its files. */
  remove(): Promise<void>;
}

/**
 * initdb and pg_ctl (PostgreSQL's server tools on PATH) refuse to run as root; as root the cluster
 * belongs to the `postgres` user and the tools run as that user.
 */
function serverToolCommand(tool: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0
    ? ['runuser', ['-u', 'postgres', '--', tool, ...args]]
    : [tool, args];
}

async function serverTool(tool: string, args: string[]): Promise<void> {
  await run(...serverToolCommand(tool, args), { timeout: 120_000 });
}

async function postgresOwner(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all(
    ['-u', '-g'].map(async (flag) => Number((await run('id', [flag, 'postgres'])).stdout.trim())),
  );
  return { uid: uid ?? 0, gid: gid ?? 0 };
}

/** initdb in a temporary folder and pg_ctl start on a free loopback port. */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'dental-pg-'));
  if (process.getuid?.() === 0) {
    const { uid, gid } = await postgresOwner();
    await chown(folder, uid, gid);
  }
  await chmod(folder, 0o700);
  const dataDir = path.join(folder, 'data');
  const port = await freePort();
  await serverTool('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync']);
  // The socket in the cluster's own folder: the machine's server keeps /var/run/postgresql.
  const options = `-p ${String(port)} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${folder}`;
  const pgCtl = (...args: string[]) =>
    serverTool('pg_ctl', ['-D', dataDir, '-l', path.join(folder, 'server.log'), ...args]);
  const start = () => pgCtl('start', '-w', '-o', options);
  await start();
  // pg_ctl's server outlives this process: one that ends without remove() (a hook that timed
  // out, a failed drill) stops it on the way out.
  const stopOnExit = () => {
    spawnSync(...serverToolCommand('pg_ctl', ['-D', dataDir, 'stop', '-m', 'immediate']));
    rmSync(folder, { recursive: true, force: true });
  };
  process.once('exit', stopOnExit);
  return {
    url: `postgres://postgres@127.0.0.1:${String(port)}/postgres`,
    restart: () => pgCtl('restart', '-w', '-m', 'fast', '-o', options),
    stopImmediately: () => pgCtl('stop', '-w', '-m', 'immediate'),
    start,
    remove: async () => {
      process.off('exit', stopOnExit);
      await pgCtl('stop', '-w', '-m', 'immediate').catch(() => undefined);
      await rm(folder, { recursive: true, force: true });
    },
  };
}
