import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import pg from 'pg';
import { appointmentRequest, type AppointmentRequest } from '@dental/contracts';
import { createMailer, type Mailer } from '#api/adapters/mailer';
import { createServices, registerJobs, type Services } from '#api/services';
import { systemClock } from '#api/clock';
import { reminders } from '#api/db/schema';
import { startJobQueue, type JobQueue } from '#api/jobs/job-queue';
import { jobQueueSettings } from '#api/jobs/job-queue';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');

/**
 * Worker processes racing on one database (docs/decisions/architecture.md#scale). Separate
 * processes cannot share an embedded PGlite database, so these run in the PostgreSQL pass of the
 * suite only.
 */
describe.runIf(inject('testDatabase').kind === 'postgres')(
  'reminder workers in separate processes',
  () => {
    let t: TestApp;
    let factory: ReturnType<typeof factories>;
    let smtp: SmtpInbox;
    let mailer: Mailer;
    let jobs: JobQueue;
    /** Like an API process started with WORKERS=off: it queues jobs and works none. */
    let api: Services;
    const workers = new Set<ChildProcess>();
    const log = { error: () => undefined };

    beforeAll(async () => {
      smtp = await startSmtpInbox();
      t = await buildTestApp({
        env: { SMTP_URL: smtp.url, WORKERS: 'off', REMINDER_ATTEMPT_SECONDS: '3' },
      });
      factory = factories(t);
      jobs = await startJobQueue(t.db, jobQueueSettings(t.config), log);
      mailer = createMailer(t.config);
      api = createServices({ config: t.config, db: t.db, mailer, jobs }, systemClock, log);
      await registerJobs(jobs, api);
    });

    // Stopped gracefully, so no SMTP conversation is cut (the SMTP test server would report it).
    afterEach(async () => {
      await Promise.all([...workers].map((worker) => stopWorker(worker, 'SIGTERM')));
    });

    afterAll(async () => {
      await jobs.stop();
      await mailer.close();
      await t.close();
      await smtp.close();
    });

    function databaseUrl(): string {
      const client = '$client' in t.db ? t.db.$client : undefined;
      if (!(client instanceof pg.Pool) || client.options.connectionString === undefined) {
        throw new Error('expected the PostgreSQL test database');
      }
      return client.options.connectionString;
    }

    /**
     * `worker.ts` in its own process; resolves once it works the queues. Mail goes to the SMTP
     * server, or to the outbox folder for a worker the test kills (a connection cut in the middle
     * of a message is not what is tested, and the SMTP server would report it).
     */
    async function startWorker(mail: 'smtp' | 'outbox' = 'smtp'): Promise<ChildProcess> {
      const worker = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/worker.ts'], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl(),
          DATA_DIR: t.config.dataDir,
          TOKEN_SECRET: t.config.tokenSecret,
          PUBLIC_URL: t.config.publicUrl,
          // The test app's address is not loopback; it has no payment provider either.
          PAYMENTS: 'test',
          SMTP_URL: mail === 'smtp' ? smtp.url : '',
          JOB_POLL_SECONDS: '0.5',
          REMINDER_ATTEMPT_SECONDS: '3',
          REMINDER_RETRY_DELAY_SECONDS: '1',
        },
      });
      workers.add(worker);
      let output = '';
      await new Promise<void>((resolve, reject) => {
        worker.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Job worker started')) resolve();
        });
        worker.stderr.on('data', (chunk: Buffer) => {
          output += chunk.toString();
        });
        worker.once('exit', (code) => {
          reject(new Error(`worker exited with ${String(code)} before starting:\n${output}`));
        });
      });
      return worker;
    }

    function stopWorker(worker: ChildProcess, signal: NodeJS.Signals): Promise<void> {
      return new Promise((resolve) => {
        worker.once('exit', () => {
          workers.delete(worker);
          resolve();
        });
        worker.kill(signal);
      });
    }

    /** `count` appointments of one member, alert i due `firstInSeconds + i * spacing` from now. */
    async function bookMany(count: number, firstInSeconds: number, spacing: number) {
      const member = await factory.member();
      const nowSeconds = Math.ceil(Date.now() / 1000);
      const ids: string[] = [];
      for (let index = 0; index < count; index++) {
        const request: AppointmentRequest = {
          appointment_date: new Date((nowSeconds + 3600) * 1000).toISOString(),
          email_alert: true,
          alert_before: [nowSeconds + firstInSeconds + Math.floor(index * spacing)],
        };
        const appointment = await api.appointments.create(
          member.id,
          appointmentRequest.parse(request),
        );
        ids.push(appointment.id);
      }
      // Every alert was still ahead when saved (a past one is never sent), so each has a reminder.
      expect(await statusesOf(ids)).toHaveLength(ids.length);
      return { member, ids };
    }

    /** The e-mails in the outbox folder. */
    async function outboxMessages(): Promise<ParsedMail[]> {
      const folder = path.join(t.config.dataDir, 'outbox', 'mail');
      const names = await readdir(folder).catch(() => [] as string[]);
      return Promise.all(
        names
          .filter((name) => name.endsWith('.eml'))
          .map(async (name) => simpleParser(await readFile(path.join(folder, name)))),
      );
    }

    /** How many e-mails arrived for each appointment (its link names it). */
    function deliveriesPerAppointment(
      ids: readonly string[],
      messages: readonly ParsedMail[] = smtp.messages,
    ): Map<string, number> {
      const counts = new Map(ids.map((id) => [id, 0]));
      for (const mail of messages) {
        const id = ids.find((candidate) =>
          (mail.text ?? '').includes(`/appointments/${candidate}/edit`),
        );
        if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      return counts;
    }

    async function statusesOf(ids: readonly string[]) {
      const rows = await t.db
        .select({ status: reminders.status })
        .from(reminders)
        .where(inArray(reminders.appointmentId, [...ids]));
      return rows.map((row) => row.status);
    }

    it('send each reminder exactly once when two workers race for them', async () => {
      await Promise.all([startWorker(), startWorker()]);
      const { ids } = await bookMany(40, 15, 0.05);

      await vi.waitFor(
        async () => {
          expect(await statusesOf(ids)).toEqual(ids.map(() => 'sent'));
        },
        { timeout: 150_000, interval: 250 },
      );
      // Time for a second copy to show up, if one were coming.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect([...deliveriesPerAppointment(ids).values()]).toEqual(ids.map(() => 1));
      expect(await statusesOf(ids)).toEqual(ids.map(() => 'sent'));
    }, 300_000);

    it('lose no reminder when a worker is killed in the middle and another takes over', async () => {
      const first = await startWorker('outbox');
      const { ids } = await bookMany(30, 15, 0.3);

      await vi.waitFor(
        async () => {
          const counts = deliveriesPerAppointment(ids, await outboxMessages());
          const delivered = [...counts.values()].filter((count) => count > 0);
          expect(delivered.length).toBeGreaterThanOrEqual(5);
        },
        { timeout: 150_000, interval: 100 },
      );
      await stopWorker(first, 'SIGKILL');
      const pendingAtKill = (await statusesOf(ids)).filter((status) => status === 'pending');
      expect(pendingAtKill.length).toBeGreaterThan(0);

      await startWorker('outbox');
      await vi.waitFor(
        async () => {
          expect(await statusesOf(ids)).toEqual(ids.map(() => 'sent'));
        },
        { timeout: 150_000, interval: 250 },
      );
      const counts = [...deliveriesPerAppointment(ids, await outboxMessages()).values()];
      expect(counts.filter((count) => count === 0)).toEqual([]);
      const rows = await t.db.select().from(reminders).where(eq(reminders.status, 'pending'));
      expect(rows).toEqual([]);
    }, 300_000);
  },
);
