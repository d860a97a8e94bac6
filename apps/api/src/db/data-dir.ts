import {
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

/** Refusals a start can act on: the message says what to do. */
export class DataDirError extends Error {
  override name = 'DataDirError';
}

/** DATA_DIR is held by a process that is still running (or still opening it). */
export class DataDirBusyError extends DataDirError {
  override name = 'DataDirBusyError';
}

/** The lock file's name inside DATA_DIR (docs/decisions/data-dir-lock.md). */
export const lockFileName = 'dental-companion.lock';

interface LockHolder {
  pid: number;
  host: string;
  startedAt: string;
  command: string;
}

const isErrno = (error: unknown, code: string): boolean =>
  error instanceof Error && 'code' in error && error.code === code;

/**
 * Creates DATA_DIR owner-only, or refuses one that group or others may read or write: it holds
 * health data, the token secret and the embedded database. Files this process creates from here
 * on are owner-only too (umask 077; worker threads share the process's umask and may not set it).
 */
export function protectDataDir(dataDir: string): void {
  if (isMainThread) process.umask(0o077);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const mode = statSync(dataDir).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new DataDirError(
      `DATA_DIR ${dataDir} can be read or written by other users (mode ${mode.toString(8)}). ` +
        `It holds health data: run \`chmod 700 ${dataDir}\` (and \`chmod -R go-rwx ${dataDir}\` ` +
        'for the files already in it), then start again.',
    );
  }
}

/**
 * Makes every file under `dir` owner-only (0600, folders 0700). PGlite sets its files' modes
 * itself (0666, whatever the umask), so its folder is fixed after it opens and after it closes.
 */
export function restrictTree(dir: string): void {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const full = path.join(entry.parentPath, entry.name);
    if (entry.isDirectory()) chmodSync(full, 0o700);
    else if (entry.isFile()) chmodSync(full, 0o600);
  }
  chmodSync(dir, 0o700);
}

function readHolder(file: string): LockHolder | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const holder = parsed as Partial<LockHolder>;
    return typeof holder.pid === 'number' && typeof holder.host === 'string'
      ? (holder as LockHolder)
      : undefined;
  } catch {
    // Gone, or not (yet) written: see `lockDataDir`.
    return undefined;
  }
}

/** A lock file another starter created a moment ago and is still writing. */
function justCreated(file: string): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs < 5_000;
  } catch {
    return false;
  }
}

/** The lock files this process holds now. */
const heldHere = new Set<string>();

/** Whether the process named in the lock still runs. Only this host's processes can be asked. */
function holderAlive(holder: LockHolder, file: string): boolean {
  if (holder.host !== hostname()) return true;
  // Our own pid on a lock we did not take: a container restarted with the pid it had before.
  if (holder.pid === process.pid) return heldHere.has(file);
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return !isErrno(error, 'ESRCH');
  }
}

export interface DataDirLock {
  release(): void;
}

/**
 * An exclusive lock on DATA_DIR for the process that opens the embedded database: a lock file
 * created with O_EXCL holding the holder's pid, host and start time. A lock whose holder no longer
 * runs (killed with -9) is taken over at once; one held by a running process refuses the start,
 * naming the folder and the holder (docs/decisions/data-dir-lock.md).
 */
export function lockDataDir(
  dataDir: string,
  command = process.argv.slice(1).join(' '),
): DataDirLock {
  const file = path.join(dataDir, lockFileName);
  const mine: LockHolder = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    command: path.basename(command).slice(0, 200),
  };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (error) {
      if (!isErrno(error, 'EEXIST')) throw error;
      const holder = readHolder(file);
      if (holder === undefined && justCreated(file)) {
        throw new DataDirBusyError(`DATA_DIR ${dataDir} is being opened by another process.`);
      }
      if (holder !== undefined && holderAlive(holder, file)) {
        throw new DataDirBusyError(
          `DATA_DIR ${dataDir} is in use by process ${String(holder.pid)} on ${holder.host} ` +
            `(${holder.command}, started ${holder.startedAt}). The embedded database allows one ` +
            'process at a time: stop that process first, or give this one another DATA_DIR.',
        );
      }
      // The holder is gone: remove its lock and try again (another starter may win the race).
      try {
        unlinkSync(file);
      } catch (unlinkError) {
        if (!isErrno(unlinkError, 'ENOENT')) throw unlinkError;
      }
      continue;
    }
    try {
      writeSync(fd, JSON.stringify(mine));
    } finally {
      closeSync(fd);
    }
    heldHere.add(file);
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        heldHere.delete(file);
        // Only our own lock is removed: never one a later holder wrote.
        if (readHolder(file)?.pid === mine.pid) unlinkSync(file);
      },
    };
  }
  throw new DataDirError(
    `DATA_DIR ${dataDir} could not be locked; another process keeps taking it.`,
  );
}
