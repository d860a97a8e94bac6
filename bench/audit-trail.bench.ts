// `npm run bench -- audit-trail [--database dental_scale_audit] [--seconds 10] [--rounds 3]`: the
// audit trail on the database `npm run bench -- seed` filled (docs/decisions/scale-bench.md):
// the activity page of the member with the long trail (member 0) and of a member with a short
// one, side by side, and `npm run audit -- verify --member` for each.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openDatabase } from '../apps/api/src/db/client';
import { systemClock } from '../apps/api/src/clock';
import { AuditService } from '../apps/api/src/modules/audit/audit.service';
import { createRepositories } from '../apps/api/src/repositories';
import {
  apiProcessCommand,
  closeAgents,
  loopback,
  running,
  startApiServer,
  stopProcess,
} from './api-processes';
import { printIssueFigures } from './issue-figures';
import { median } from './median';
import {
  loadActivityPage,
  percentile,
  printRoutes,
  scaleApiEnv,
  signIn,
  type Sample,
} from './scale.bench';
import { scaleDatabaseUrl, seededEmail } from './seed';

/** This bench's API port (the scale bench's are 3580–3590). */
const apiPort = 3640;
const execFileAsync = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, '..');

export async function auditTrailBench(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      database: { type: 'string', default: 'dental_scale_audit' },
      seconds: { type: 'string', default: '10' },
      rounds: { type: 'string', default: '3' },
      member: { type: 'string', default: '1' },
    },
  });
  const seconds = Number(values.seconds);
  const rounds = Number(values.rounds);
  const databaseUrl = scaleDatabaseUrl(values.database);

  const probe = new pg.Client({ connectionString: databaseUrl });
  await probe.connect().catch((error: unknown) => {
    throw new Error(`No scale database: run \`npm run bench -- seed\` first.`, { cause: error });
  });
  const members: { index: number; id: string; rows: number }[] = [];
  try {
    for (const index of [0, Number(values.member)]) {
      const { rows } = await probe.query<{ id: string; rows: string }>(
        `SELECT u.id, (SELECT count(*) FROM audit_events WHERE member_id = u.id) AS rows
           FROM users u WHERE u.email = $1`,
        [seededEmail(index)],
      );
      const [member] = rows;
      if (member === undefined) throw new Error(`No seeded member ${String(index)}.`);
      members.push({ index, id: member.id, rows: Number(member.rows) });
    }
    const { rows: size } = await probe.query<{ rows: string; size: string }>(
      `SELECT (SELECT reltuples::bigint FROM pg_class WHERE relname = 'audit_events') AS rows,
              pg_size_pretty(pg_total_relation_size('audit_events')) AS size`,
    );
    console.log(
      `${values.database}: audit_events about ${Number(size[0]?.rows).toLocaleString('en-US')} rows, ${size[0]?.size ?? '?'} with its indexes; load average ${os
        .loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')} on ${String(os.cpus().length)} CPUs`,
    );
  } finally {
    await probe.end();
  }
  const [heavy, normal] = members as [(typeof members)[0], (typeof members)[0]];
  const label = (member: typeof heavy) =>
    `member ${String(member.index)} (${member.rows.toLocaleString('en-US')} rows)`;

  // The activity page through one API process, the two members' pages in turn, round by round.
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'dental-audit-trail-'));
  const baseUrl = `http://${loopback}:${String(apiPort)}`;
  const p99s = new Map<string, number[]>(
    members.flatMap((member) => [
      [`${member.id} 1`, []],
      [`${member.id} 10`, []],
    ]),
  );
  try {
    const env = scaleApiEnv(databaseUrl, randomBytes(32).toString('base64url'), baseUrl, workDir);
    await startApiServer(await apiProcessCommand(), apiPort, path.join(workDir, 'api'), env).ready;
    const signIns: Sample[] = [];
    const tokens = new Map<string, string>();
    for (const member of members) {
      tokens.set(member.id, await signIn(baseUrl, member.index, loopback, signIns));
    }
    console.log(
      `\nSign-in (a browser new to the member): ${members.map((member, index) => `${label(member)} ${signIns[index]?.ms.toFixed(0) ?? '?'} ms`).join(', ')}`,
    );
    for (let round = 1; round <= rounds; round += 1) {
      for (const member of members) {
        for (const atOnce of [1, 10]) {
          const { samples, seconds: took } = await loadActivityPage(
            baseUrl,
            loopback,
            tokens.get(member.id) ?? '',
            seconds,
            atOnce,
          );
          printRoutes(
            `Round ${String(round)}: ${label(member)}’s activity page, ${String(atOnce)} at once`,
            samples,
            took,
          );
          p99s.get(`${member.id} ${String(atOnce)}`)?.push(
            percentile(
              samples.map((sample) => sample.ms).sort((a, b) => a - b),
              0.99,
            ),
          );
        }
      }
    }
  } finally {
    await Promise.all([...running].map((managed) => stopProcess(managed)));
    closeAgents();
    await rm(workDir, { recursive: true, force: true });
  }

  // One member's check: the chain walk alone, in this process, and the command as run.
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl });
  const walks = new Map<string, number[]>(members.map((member) => [member.id, []]));
  const commands = new Map<string, number>();
  try {
    const audit = new AuditService(createRepositories(database.db).audit, systemClock);
    for (let round = 1; round <= rounds; round += 1) {
      for (const member of members) {
        const started = performance.now();
        const report = await audit.verify(member.id);
        // The sign-ins above added a row or two to each chain.
        if (report.broken.length > 0 || report.rows < member.rows) {
          throw new Error(`The chain of ${label(member)} did not verify whole.`);
        }
        walks.get(member.id)?.push(performance.now() - started);
      }
    }
    for (const member of members) {
      const started = performance.now();
      await execFileAsync(
        'npm',
        ['run', '--silent', 'audit', '--', 'verify', '--member', member.id],
        {
          cwd: repoRoot,
          env: { ...process.env, DATABASE_URL: databaseUrl },
        },
      );
      commands.set(member.id, performance.now() - started);
    }
  } finally {
    await database.close();
  }
  console.log(
    '\nnpm run audit -- verify --member <id>: the chain walk (median of rounds) | the command',
  );
  for (const member of members) {
    const walk = median(walks.get(member.id) ?? []);
    console.log(
      `  ${label(member)}: ${(walk / 1000).toFixed(2)} s (${((walk * 1000) / Math.max(member.rows, 1)).toFixed(1)} µs a row) | ${((commands.get(member.id) ?? 0) / 1000).toFixed(1)} s`,
    );
  }

  const p99 = (member: typeof heavy) =>
    [1, 10]
      .map(
        (atOnce) =>
          `${median(p99s.get(`${member.id} ${String(atOnce)}`) ?? []).toFixed(1)} ms ${String(atOnce)} at once`,
      )
      .join(', ');
  printIssueFigures('The audit trail at 100 M rows', [
    {
      what: `activity page p99, ${label(heavy)}, median of ${String(rounds)} rounds (this run: ${p99(heavy)})`,
      filed: '63.6 ms (member 0 with 1,000,000 rows of 1,999,990, 10 at once)',
      goal: '< 50 ms',
    },
    {
      what: `activity page p99, ${label(normal)} (this run: ${p99(normal)})`,
      filed: 'not measured',
      goal: '< 50 ms',
    },
    {
      what: `npm run audit -- verify for one member (this run: ${label(heavy)} ${((commands.get(heavy.id) ?? 0) / 1000).toFixed(1)} s, ${label(normal)} ${((commands.get(normal.id) ?? 0) / 1000).toFixed(1)} s)`,
      filed: 'no such check: the whole trail, about 8 µs a row (15 min at 100 M rows)',
      goal: 'bounded by the member’s own chain',
    },
  ]);
}
