import { ConfigError, loadConfig, type Config } from '../config';
import { DataDirError } from '../db/data-dir';
import { BackupError } from '../backup/manifest';

/**
 * Runs `npm run backup|restore -- <folder>` on the configuration of the environment: the message of
 * a refusal the operator can act on, or the whole error, and exit code 1 on failure.
 */
export function runBackupCommand(
  name: string,
  usage: string,
  work: (config: Config, folder: string) => Promise<string>,
): void {
  const [folder, ...rest] = process.argv.slice(2);
  if (folder === undefined || rest.length > 0 || folder === '--help') {
    process.stderr.write(`${usage}\n`);
    process.exitCode = 1;
    return;
  }
  Promise.resolve()
    .then(() => work(loadConfig(process.env), folder))
    .then(
      (summary) => {
        process.stdout.write(`${summary}\n`);
      },
      (error: unknown) => {
        const known =
          error instanceof BackupError ||
          error instanceof ConfigError ||
          error instanceof DataDirError;
        process.stderr.write(`${name} failed: ${known ? error.message : String(error)}\n`);
        if (!known) console.error(error);
        process.exitCode = 1;
      },
    );
}
