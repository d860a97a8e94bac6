import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { inArray } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { newMessageThread } from '@dental/contracts';
import { messageNotices } from '#api/db/schema';
import type { Services } from '#api/services';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { staffFactories } from '#api-test/staff';
import { withJobQueue, type JobQueueApp } from '#api-test/support/job-queue-app';
import { workerProcesses } from '#api-test/support/worker-processes';

/**
 * Reply notices with worker processes racing on one database, and one killed between handing a
 * notice to the mail server and recording it (docs/decisions/care-messages.md). Separate
 * processes cannot share an embedded PGlite database: PostgreSQL pass only.
 */
describe.runIf(inject('testDatabase').kind === 'postgres')(
  'reply notices with worker processes',
  () => {
    let t: TestApp;
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
      workers = workerProcesses(t, smtp);
      queueing = await withJobQueue(t, { workers: false });
      api = queueing.services;
    });

    afterEach(() => workers.stopAll());

    afterAll(async () => {
      await queueing.close();
      await t.close();
      await smtp.close();
    });

    /** `count` threads of new members, each answered once by a staff member. */
    async function replies(count: number) {
      const factory = factories(t);
      const staff = await staffFactories(t).staff('practitioner');
      const threadIds: string[] = [];
      const messageIds: string[] = [];
      for (let index = 0; index < count; index++) {
        const member = await factory.member();
        const { id } = await api.messages.start(
          member.id,
          newMessageThread.parse({ subject: `Question ${String(index)}`, body: 'Is this ok?' }),
        );
        const reply = await api.messages.staffReply({ id: staff.id, name: staff.username }, id, {
          body: 'Yes.',
        });
        threadIds.push(id);
        messageIds.push(reply.id);
      }
      return { threadIds, messageIds };
    }

    /** How many notices arrived for each thread (its link names it). */
    function deliveriesPerThread(ids: readonly string[], mails: readonly ParsedMail[]) {
      const counts = new Map(ids.map((id) => [id, 0]));
      for (const mail of mails) {
        const id = ids.find((candidate) => (mail.text ?? '').includes(`/messages/${candidate}`));
        if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      return [...counts.values()];
    }

    async function statusesOf(messageIds: readonly string[]) {
      const rows = await t.db
        .select({ status: messageNotices.status })
        .from(messageNotices)
        .where(inArray(messageNotices.messageId, [...messageIds]));
      return rows.map((row) => row.status);
    }

    it('send each notice exactly once when two workers race for them', async () => {
      const { threadIds, messageIds } = await replies(30);
      await Promise.all([workers.start(), workers.start()]);

      await vi.waitFor(
        async () => {
          expect(await statusesOf(messageIds)).toEqual(messageIds.map(() => 'sent'));
        },
        { timeout: 150_000, interval: 250 },
      );
      // Time for a second copy to show up, if one were coming.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(deliveriesPerThread(threadIds, smtp.messages)).toEqual(threadIds.map(() => 1));
    }, 300_000);

    it('lose no notice when a worker is killed between sending one and recording it', async () => {
      let handedOver = false;
      const stalling = await workers.start('outbox', {
        script: 'apps/api/test/support/stalling-notice-worker.ts',
        onOutput: (output) => {
          handedOver ||= output.includes('Notice handed over');
        },
      });
      const { threadIds, messageIds } = await replies(1);
      await vi.waitFor(
        () => {
          expect(handedOver).toBe(true);
        },
        { timeout: 60_000, interval: 100 },
      );
      // Sent, and not yet recorded: the worker holds the row while it is stuck.
      expect(deliveriesPerThread(threadIds, await workers.outboxMessages())).toEqual([1]);
      expect(await statusesOf(messageIds)).toEqual(['pending']);
      await workers.stop(stalling, 'SIGKILL');

      await workers.start('outbox');
      await vi.waitFor(
        async () => {
          expect(await statusesOf(messageIds)).toEqual(['sent']);
        },
        { timeout: 60_000, interval: 250 },
      );
      // Recorded once; the mail server had the killed worker's copy too: at least once in this
      // window, as for reminders (no mail or SMS provider takes an idempotency key).
      expect(deliveriesPerThread(threadIds, await workers.outboxMessages())).toEqual([2]);
    }, 300_000);
  },
);
