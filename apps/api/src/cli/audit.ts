import { z } from 'zod';
import { systemClock } from '../clock';
import { AuditService, type BrokenRow, type VerifyReport } from '../modules/audit/audit.service';
import { createRepositories } from '../repositories';
import { openForCommand, runWhenScript, type CommandMain } from './command';

export const usage = `Audit command: npm run audit -- <command>

  verify                  checks the hash chain of every member's audit trail; names the first
                          broken row of each broken chain and exits with 1 when there is one
  verify --member <id>    the same for one member's chain only (read through its index, so it
                          takes as long as that chain, whatever the size of the trail)

Uses DATABASE_URL when set, otherwise the embedded database in DATA_DIR (default ./data), which
allows one process at a time: stop the server first.`;

/** A member's id; anything else would fail as a uuid in the query. */
const memberIdSchema = z.uuid();

const reasons: Record<BrokenRow['reason'], string> = {
  hash: 'its fields no longer match its hash (the row was changed)',
  link: 'it does not carry the hash of the row before it (a row was changed or replaced)',
  gap: 'the rows before it are missing (a row was removed)',
};

/** The lines `verify` prints for a report. */
export function describeReport(report: VerifyReport): string[] {
  const summary = `Checked ${String(report.rows)} rows in ${String(report.chains)} chains`;
  if (report.broken.length === 0) return [`${summary}: every chain is intact.`];
  return [
    `${summary}: ${String(report.broken.length)} broken.`,
    ...report.broken.map(
      (row) =>
        `Chain of ${row.memberId ?? 'no member (failed sign-ins of unknown e-mails)'}: ` +
        `first broken row ${row.id} (position ${String(row.seq)}): ${reasons[row.reason]}.`,
    ),
  ];
}

/** Runs one command; answers the exit code. */
export async function runAuditCommand(
  audit: AuditService,
  argv: readonly string[],
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> {
  const [command, flag, memberId, ...rest] = argv;
  const oneMember =
    flag === '--member' && memberId !== undefined && memberIdSchema.safeParse(memberId).success;
  if (command !== 'verify' || rest.length > 0 || (flag !== undefined && !oneMember)) {
    err(argv.length === 0 ? usage : `Unknown command "${argv.join(' ')}".\n\n${usage}`);
    return 1;
  }
  const report = await audit.verify(oneMember ? memberId : undefined);
  const [summary = '', ...broken] = describeReport(report);
  out(summary);
  broken.forEach(err);
  return report.broken.length === 0 ? 0 : 1;
}

/** Opens the configured database, runs the command, closes; answers the exit code. */
export const main: CommandMain = async (argv, env, out, err) => {
  if (argv[0] === 'help' || argv.includes('--help')) {
    out(usage);
    return 0;
  }
  const opened = await openForCommand(env, err);
  if (opened === null) return 1;
  const { database } = opened;
  try {
    const audit = new AuditService(createRepositories(database.db).audit, systemClock);
    return await runAuditCommand(audit, argv, out, err);
  } finally {
    await database.close();
  }
};

runWhenScript(import.meta.url, main);
