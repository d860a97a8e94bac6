import { readFile } from 'node:fs/promises';
import { databaseTarget, openDatabase, type DatabaseHandle } from '../db/client';
import { DataDirBusyError, DataDirError } from '../db/data-dir';
import { ClinicError } from '../modules/virtual-consultation/clinic.service';
import { createRepositories } from '../repositories';
import {
  clinicSocketPath,
  encodeFrame,
  maxRequestBytes,
  sendClinicRequest,
  type ClinicRequest,
} from '../clinic-command/channel';
import {
  imageArguments,
  openClinicService,
  runClinicCommand,
  usage,
} from '../clinic-command/commands';
import { loadForCommand, runWhenScript, type CommandMain, type Print } from './command';

export { runClinicCommand, usage };

/**
 * The embedded database is held by another process: the server, when it listens on its clinic
 * channel, runs the command for us (docs/decisions/clinic-channel.md); anything else is refused
 * with the lock's message, naming the holder.
 */
async function throughRunningServer(
  dataDir: string,
  argv: readonly string[],
  busy: DataDirBusyError,
  out: Print,
  err: Print,
): Promise<number> {
  const files: ClinicRequest['files'] = [];
  for (const name of imageArguments(argv)) {
    // An unreadable file is left out; the command then says it could not be read.
    const bytes = await readFile(name).catch(() => undefined);
    if (bytes !== undefined) files.push({ name, base64: bytes.toString('base64') });
  }
  const request: ClinicRequest = { version: 1, argv: [...argv], files };
  if (encodeFrame(request).length > maxRequestBytes) {
    err(
      `The images are too large to send to the running server (at most ${String(maxRequestBytes / 1024 / 1024)} MiB together; each may be at most 5 MB).`,
    );
    return 1;
  }
  const result = await sendClinicRequest(clinicSocketPath(dataDir), request);
  switch (result.kind) {
    case 'no-server':
      err(busy.message);
      return 1;
    case 'lost':
      err(
        'The server closed the connection before answering (it may have stopped). The command ' +
          'may or may not have been carried out: check with the list commands.',
      );
      return 1;
    case 'answered':
      result.answer.lines.forEach(out);
      if (result.answer.error === null) return 0;
      err(result.answer.error);
      return 1;
  }
}

/**
 * Opens the configured database and blob store, runs the command, closes; answers the exit code.
 * While the server holds the embedded database, the server runs it.
 */
export const main: CommandMain = async (argv, env, out, err) => {
  if (argv.length === 0 || argv[0] === 'help' || argv.includes('--help')) {
    out(usage);
    return argv.length === 0 ? 1 : 0;
  }
  const config = loadForCommand(env, err);
  if (config === null) return 1;
  let database: DatabaseHandle;
  try {
    database = await openDatabase(databaseTarget(config));
  } catch (error) {
    if (error instanceof DataDirBusyError) {
      return throughRunningServer(config.dataDir, argv, error, out, err);
    }
    if (!(error instanceof DataDirError)) throw error;
    err(error.message);
    return 1;
  }
  const { clinic, close } = openClinicService(
    config,
    database.db,
    createRepositories(database.db).clinic,
    {
      error: (_details, message) => {
        err(message);
      },
    },
  );
  try {
    await runClinicCommand(clinic, argv, out);
    return 0;
  } catch (error) {
    if (error instanceof ClinicError) {
      err(error.message);
      return 1;
    }
    throw error;
  } finally {
    await close();
    await database.close();
  }
};

runWhenScript(import.meta.url, main);
