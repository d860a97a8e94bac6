import { createBlobStore } from '../adapters/blob-store/create-blob-store';
import { sweptPrefixes } from '../modules/files/file-storage';
import { integrityChecked } from '../modules/files/integrity-checked-blob-store';
import { openForCommand, runWhenScript, type CommandMain } from './command';

export const usage = `Verify stored files: npm run verify-files [-- --record-missing]

Reads every stored file (members' uploads and doctors' images) and checks it against the SHA-256
recorded when it was stored. Exits 1 when a file differs. --record-missing records the digest of
files stored before digests were kept (run it once after upgrading, on files you trust).`;

/** Checks every stored file; prints a summary and each failing key; answers the exit code. */
export const main: CommandMain = async (argv, env, out, err) => {
  if (argv.includes('--help') || argv.some((arg) => arg !== '--record-missing')) {
    out(usage);
    return argv.includes('--help') ? 0 : 1;
  }
  const opened = await openForCommand(env, err);
  if (opened === null) return 1;
  const { config, database } = opened;
  const blobs = integrityChecked(createBlobStore(config), database.db, {
    error: () => undefined,
  });
  try {
    const report = await blobs.verifyAll(sweptPrefixes, {
      recordMissing: argv.includes('--record-missing'),
    });
    for (const key of report.mismatched) err(`MISMATCH ${key}`);
    for (const key of report.withoutDigest) out(`no digest recorded: ${key}`);
    out(
      `${String(report.checked)} file(s) checked, ${String(report.mismatched.length)} failed ` +
        `the integrity check, ${String(report.withoutDigest.length)} had no digest` +
        (argv.includes('--record-missing') && report.withoutDigest.length > 0
          ? ' (now recorded).'
          : '.'),
    );
    return report.mismatched.length === 0 ? 0 : 1;
  } finally {
    blobs.close();
    await database.close();
  }
};

runWhenScript(import.meta.url, main);
