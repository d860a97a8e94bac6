import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { appointmentPaths, recallNeedsChannelMessage, type CheckUpRecall } from '@dental/contracts';
import { startTwilioTestServer, type TwilioTestServer } from '#api-test/mocks/twilio-test-server';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { newestAuditRow } from '#api-test/support/audit-rows';
import { withJobQueue, type JobQueueApp } from '#api-test/support/job-queue-app';
import { notificationEnv, receivedBy } from '#api-test/support/notification-env';
import { checkUpRecallNotices } from '#api/db/schema';
import { CheckUpRecallRepository } from './check-up-recall.repository';
import { addMonths } from './check-up-recall.service';

/**
 * The check-up recall through the API, and its sending through the job queue (pg-boss on the test
 * database) with e-mail over real SMTP and SMS over a server speaking Twilio's API.
 */
let t: TestApp;
let factory: ReturnType<typeof factories>;
let smtp: SmtpInbox;
let twilio: TwilioTestServer;
let api: JobQueueApp;

beforeAll(async () => {
  [smtp, twilio] = await Promise.all([startSmtpInbox(), startTwilioTestServer()]);
  t = await buildTestApp({ env: notificationEnv(smtp, twilio) });
  factory = factories(t);
  api = await withJobQueue(t);
});

afterAll(async () => {
  await api.close();
  await t.close();
  await Promise.all([smtp.close(), twilio.close()]);
});

const received = () => receivedBy(smtp, twilio);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const monthsAgo = (months: number) => addMonths(new Date(), -months);

const getRecall = (token: string, url: string = appointmentPaths.recall) =>
  t.request('GET', url, { token });
const putRecall = (token: string, body: unknown) =>
  t.request('PUT', appointmentPaths.recall, { token, body });

/** A past appointment on `date`, with a note the recall must never repeat. */
async function pastAppointment(member: { id: string }, date: Date) {
  await factory.appointment(member, {
    appointment_date: date.toISOString(),
    note: 'Crown on lower left molar',
    email_alert: false,
    sms_alert: false,
    alert_before: [],
  });
}

async function noticeStatuses(userId: string) {
  return t.db
    .select({
      channel: checkUpRecallNotices.channel,
      status: checkUpRecallNotices.status,
      outcome: checkUpRecallNotices.outcome,
    })
    .from(checkUpRecallNotices)
    .where(eq(checkUpRecallNotices.userId, userId))
    .orderBy(checkUpRecallNotices.channel);
}

describe('setting the check-up recall', () => {
  it('is off at first; set, it counts from the last past appointment; each read and change is audited', async () => {
    const member = await factory.loggedInMember();
    const first = await getRecall(member.tokens.access);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      interval_months: null,
      email_alert: false,
      sms_alert: false,
      last_appointment_date: null,
      due_date: null,
    });
    expect(await newestAuditRow(t, member.id)).toMatchObject({
      action: 'read',
      resourceType: 'check_up_recall',
    });

    const last = new Date('2026-01-31T15:00:00.000Z');
    await pastAppointment(member, new Date('2025-06-01T09:00:00.000Z'));
    await pastAppointment(member, last);
    const set = await putRecall(member.tokens.access, {
      interval_months: 6,
      email_alert: true,
      sms_alert: false,
    });
    expect(set.statusCode).toBe(200);
    expect(set.json<CheckUpRecall>()).toEqual({
      interval_months: 6,
      email_alert: true,
      sms_alert: false,
      last_appointment_date: last.toISOString(),
      due_date: '2026-07-31T15:00:00.000Z',
    });
    expect(await newestAuditRow(t, member.id)).toMatchObject({
      action: 'change',
      resourceType: 'check_up_recall',
    });

    const off = await putRecall(member.tokens.access, {
      interval_months: null,
      email_alert: false,
      sms_alert: false,
    });
    expect(off.json<CheckUpRecall>()).toMatchObject({ interval_months: null, due_date: null });
  });

  it('refuses bad input with a problem and changes nothing', async () => {
    const member = await factory.loggedInMember();
    await putRecall(member.tokens.access, {
      interval_months: 12,
      email_alert: true,
      sms_alert: false,
    });
    for (const body of [
      { interval_months: 3, email_alert: true, sms_alert: false },
      { interval_months: 6, email_alert: false, sms_alert: false },
      { interval_months: '6', email_alert: true, sms_alert: false },
      {},
    ]) {
      const res = await putRecall(member.tokens.access, body);
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
    }
    const noChannel = await putRecall(member.tokens.access, {
      interval_months: 6,
      email_alert: false,
      sms_alert: false,
    });
    expect(JSON.stringify(noChannel.json())).toContain(recallNeedsChannelMessage);
    expect((await getRecall(member.tokens.access)).json()).toMatchObject({
      interval_months: 12,
      email_alert: true,
    });
  });

  it('is the member’s own: another member gets 404 for it and never sees it', async () => {
    const owner = await factory.loggedInMember();
    const other = await factory.loggedInMember();
    await putRecall(owner.tokens.access, {
      interval_months: 6,
      email_alert: true,
      sms_alert: true,
    });
    const asked = await getRecall(
      other.tokens.access,
      `${appointmentPaths.recall}?member=${owner.id}`,
    );
    expect(asked.statusCode).toBe(404);
    expect((await getRecall(other.tokens.access)).json()).toMatchObject({ interval_months: null });
  });

  it('needs a sign-in', async () => {
    expect((await t.request('GET', appointmentPaths.recall)).statusCode).toBe(401);
  });
});

describe('sending the check-up recall', () => {
  it('arrives once by e-mail and SMS when due, without health details, and never again', async () => {
    const member = await factory.loggedInMember({ phone: '+14155550188' });
    await pastAppointment(member, monthsAgo(7));
    await putRecall(member.tokens.access, {
      interval_months: 6,
      email_alert: true,
      sms_alert: true,
    });

    await api.services.checkUpRecalls.sweep();
    const mail = await smtp.waitForMessageTo(member.email);
    await vi.waitFor(
      () => {
        expect(received().sms('+14155550188')).toHaveLength(1);
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(mail.subject).toBe('A reminder from Dental Companion');
    expect(mail.text).toContain('it is time to book your next check-up');
    expect(mail.text).not.toContain('Crown');
    const [sms] = received().sms('+14155550188');
    expect(sms?.body).toBe(
      'Dental Companion: it is time to book your next dental check-up. http://app.test/appointments/add',
    );
    await vi.waitFor(
      async () => {
        expect(await noticeStatuses(member.id)).toEqual([
          { channel: 'email', status: 'sent', outcome: null },
          { channel: 'sms', status: 'sent', outcome: null },
        ]);
      },
      { timeout: 5000, interval: 100 },
    );

    // Sweeps that run again (every minute, in every process) make nothing more for that date.
    expect(await api.services.checkUpRecalls.sweep()).toBe(0);
    await sleep(1500);
    expect(received().mail(member.email)).toHaveLength(1);
    expect(received().sms('+14155550188')).toHaveLength(1);
  });

  it('rows made before a stop are queued by the next process and sent once', async () => {
    const member = await factory.loggedInMember();
    await pastAppointment(member, monthsAgo(13));
    await putRecall(member.tokens.access, {
      interval_months: 12,
      email_alert: true,
      sms_alert: false,
    });
    // A process that made the rows and stopped before queueing them: the rows are in the
    // database, no job is.
    expect(await t.services.checkUpRecalls.sweep()).toBe(0);
    expect(await new CheckUpRecallRepository(t.db).createDue(new Date())).toBeGreaterThanOrEqual(1);
    await api.services.checkUpRecalls.sweep();
    await smtp.waitForMessageTo(member.email);
    await sleep(1000);
    expect(received().mail(member.email)).toHaveLength(1);
  });

  it('is not made while a later appointment is booked, nor before it is due', async () => {
    const booked = await factory.loggedInMember();
    await pastAppointment(booked, monthsAgo(8));
    await pastAppointment(booked, addMonths(new Date(), 1));
    await putRecall(booked.tokens.access, {
      interval_months: 6,
      email_alert: true,
      sms_alert: false,
    });
    const early = await factory.loggedInMember();
    await pastAppointment(early, monthsAgo(5));
    await putRecall(early.tokens.access, {
      interval_months: 6,
      email_alert: true,
      sms_alert: false,
    });

    await api.services.checkUpRecalls.sweep();
    expect(await noticeStatuses(booked.id)).toEqual([]);
    expect(await noticeStatuses(early.id)).toEqual([]);
  });

  it('goes by e-mail only to a confirmed address', async () => {
    const member = await factory.loggedInMember({}, { confirmed: false });
    await pastAppointment(member, monthsAgo(7));
    await putRecall(member.tokens.access, {
      interval_months: 6,
      email_alert: true,
      sms_alert: false,
    });
    await api.services.checkUpRecalls.sweep();
    await vi.waitFor(
      async () => {
        expect(await noticeStatuses(member.id)).toEqual([
          { channel: 'email', status: 'skipped', outcome: 'e-mail address not confirmed' },
        ]);
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(received().mail(member.email)).toEqual([]);
  });
});
