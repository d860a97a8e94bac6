import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { appointmentRequest, type AppointmentRequest } from '@dental/contracts';
import type { Services } from '#api/services';
import { reminders } from '#api/db/schema';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { withJobQueue, type JobQueueApp } from '#api-test/support/job-queue-app';
import { workerProcesses } from '#api-test/support/worker-processes';

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
    /** Like an API process started with WORKERS=off: it queues jobs and works none. */
    let queueing: JobQueueApp;
    let api: Services;
    let workers: ReturnType<typeof workerProcesses>;

    beforeAll(async () => {
      smtp = await startSmtpInbox();
      t = await buildTestApp({
        env: { SMTP_URL: smtp.url, WORKERS: 'off', REMINDER_ATTEMPT_SECONDS: '3' },
      });
      factory = factories(t);
      workers = workerProcesses(t, smtp);
      queueing = await withJobQueue(t, { workers: false });
      api = queueing.services;
    });

    // Stopped gracefully, so no SMTP conversation is cut (the SMTP test server would report it).
    afterEach(() => workers.stopAll());

    afterAll(async () => {
      await queueing.close();
      await t.close();
      await smtp.close();
    });

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
      await Promise.all([workers.start(), workers.start()]);
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
      const first = await workers.start('outbox');
      const { ids } = await bookMany(30, 15, 0.3);

      await vi.waitFor(
        async () => {
          const counts = deliveriesPerAppointment(ids, await workers.outboxMessages());
          const delivered = [...counts.values()].filter((count) => count > 0);
          expect(delivered.length).toBeGreaterThanOrEqual(5);
        },
        { timeout: 150_000, interval: 100 },
      );
      await workers.stop(first, 'SIGKILL');
      const pendingAtKill = (await statusesOf(ids)).filter((status) => status === 'pending');
      expect(pendingAtKill.length).toBeGreaterThan(0);

      await workers.start('outbox');
      await vi.waitFor(
        async () => {
          expect(await statusesOf(ids)).toEqual(ids.map(() => 'sent'));
        },
        { timeout: 150_000, interval: 250 },
      );
      const counts = [...deliveriesPerAppointment(ids, await workers.outboxMessages()).values()];
      expect(counts.filter((count) => count === 0)).toEqual([]);
      const rows = await t.db.select().from(reminders).where(eq(reminders.status, 'pending'));
      expect(rows).toEqual([]);
    }, 300_000);
  },
);
