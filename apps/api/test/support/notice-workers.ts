import type { SQL } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { messageNotices } from '#api/db/schema';
import type { Services } from '#api/services';
import { buildTestApp, type TestApp } from '../build-test-app';
import { startSmtpInbox, type SmtpInbox } from '../smtp-inbox';
import { withJobQueue, type JobQueueApp } from './job-queue-app';
import { workerProcesses } from './worker-processes';

/** What the notice race tests work with; filled in by their `beforeAll`. */
export interface NoticeWorkers {
  t: TestApp;
  smtp: SmtpInbox;
  /** The services of an API process started with WORKERS=off: it queues jobs and works none. */
  api: Services;
  workers: ReturnType<typeof workerProcesses>;
}

/**
 * The setting of the notice outbox's race tests (reply and review notices): a test app, an SMTP
 * inbox, a queueing API process and worker processes, stopped after each test.
 */
export function noticeWorkers(): NoticeWorkers {
  const setting = {} as NoticeWorkers;
  let queueing: JobQueueApp;

  beforeAll(async () => {
    setting.smtp = await startSmtpInbox();
    setting.t = await buildTestApp({
      env: { SMTP_URL: setting.smtp.url, WORKERS: 'off', REMINDER_ATTEMPT_SECONDS: '3' },
    });
    setting.workers = workerProcesses(setting.t, setting.smtp);
    queueing = await withJobQueue(setting.t, { workers: false });
    setting.api = queueing.services;
  });

  afterEach(() => setting.workers.stopAll());

  afterAll(async () => {
    await queueing.close();
    await setting.t.close();
    await setting.smtp.close();
  });

  return setting;
}

/** How many notices arrived for each id, the e-mail's link naming it (`link(id)`). */
export function deliveriesPer(
  ids: readonly string[],
  mails: readonly ParsedMail[],
  link: (id: string) => string,
): number[] {
  const counts = new Map(ids.map((id) => [id, 0]));
  for (const mail of mails) {
    const id = ids.find((candidate) => (mail.text ?? '').includes(link(candidate)));
    if (id !== undefined) counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return [...counts.values()];
}

/** Notices a race test made: the ids their e-mails link to, and which outbox rows are theirs. */
export interface RacedNotices {
  linkIds: string[];
  rows: SQL;
}

/**
 * The outbox's race tests, for one kind of notice (docs/decisions/reminder-delivery.md): two
 * worker processes send each notice exactly once, and a worker killed between handing a notice
 * to the mail server and recording it loses none. `make(count)` writes `count` notices;
 * `link(id)` is what an e-mail's text names.
 */
export function noticeRaceTests(
  setting: NoticeWorkers,
  make: (count: number) => Promise<RacedNotices>,
  link: (id: string) => string,
): void {
  async function statusesOf(notices: RacedNotices) {
    const rows = await setting.t.db
      .select({ status: messageNotices.status })
      .from(messageNotices)
      .where(notices.rows);
    return rows.map((row) => row.status);
  }

  it('send each notice exactly once when two workers race for them', async () => {
    const notices = await make(30);
    await Promise.all([setting.workers.start(), setting.workers.start()]);

    await vi.waitFor(
      async () => {
        expect(await statusesOf(notices)).toEqual(notices.linkIds.map(() => 'sent'));
      },
      { timeout: 150_000, interval: 250 },
    );
    // Time for a second copy to show up, if one were coming.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(deliveriesPer(notices.linkIds, setting.smtp.messages, link)).toEqual(
      notices.linkIds.map(() => 1),
    );
  }, 300_000);

  it('lose no notice when a worker is killed between sending one and recording it', async () => {
    const { workers } = setting;
    let handedOver = false;
    const stalling = await workers.start('outbox', {
      script: 'apps/api/test/support/stalling-notice-worker.ts',
      onOutput: (output) => {
        handedOver ||= output.includes('Notice handed over');
      },
    });
    const notices = await make(1);
    await vi.waitFor(
      () => {
        expect(handedOver).toBe(true);
      },
      { timeout: 60_000, interval: 100 },
    );
    // Sent, and not yet recorded: the worker holds the row while it is stuck.
    expect(deliveriesPer(notices.linkIds, await workers.outboxMessages(), link)).toEqual([1]);
    expect(await statusesOf(notices)).toEqual(['pending']);
    await workers.stop(stalling, 'SIGKILL');

    await workers.start('outbox');
    await vi.waitFor(
      async () => {
        expect(await statusesOf(notices)).toEqual(['sent']);
      },
      { timeout: 60_000, interval: 250 },
    );
    // Recorded once; the mail server had the killed worker's copy too: at least once in this
    // window, as for reminders (no mail or SMS provider takes an idempotency key).
    expect(deliveriesPer(notices.linkIds, await workers.outboxMessages(), link)).toEqual([2]);
  }, 300_000);
}
