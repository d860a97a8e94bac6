import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, type Config, type Env } from '#api/config';
import { databaseTarget, openDatabase, type DatabaseHandle } from '#api/db/client';
import { DataDirError } from '#api/db/data-dir';

export type Print = (line: string) => void;

/** A command: its arguments and environment in, lines out, the exit code back. */
export type CommandMain = (
  argv: readonly string[],
  env: Env,
  out: Print,
  err: Print,
) => Promise<number>;

/** The configuration of a command; a bad setting is told to the operator: null. */
export function loadForCommand(env: Env, err: Print): Config | null {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    err(error.message);
    return null;
  }
}

/**
 * The configuration and the opened database of a command. A bad setting, or a DATA_DIR another
 * process holds (the lock names it: the server, most likely), is told to the operator: null.
 */
export async function openForCommand(
  env: Env,
  err: Print,
): Promise<{ config: Config; database: DatabaseHandle } | null> {
  const config = loadForCommand(env, err);
  if (config === null) return null;
  try {
    return { config, database: await openDatabase(databaseTarget(config)) };
  } catch (error) {
    if (!(error instanceof DataDirError)) throw error;
    err(error.message);
    return null;
  }
}

/**
 * Runs `main` on the process's arguments when `moduleUrl` is the script Node.js was started with;
 * a test imports the same module and calls `main` itself.
 */
export function runWhenScript(moduleUrl: string, main: CommandMain): void {
  const script = process.argv[1];
  if (script === undefined || path.resolve(script) !== fileURLToPath(moduleUrl)) return;
  main(
    process.argv.slice(2),
    process.env,
    (line) => {
      process.stdout.write(`${line}\n`);
    },
    (line) => {
      process.stderr.write(`${line}\n`);
    },
  ).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
