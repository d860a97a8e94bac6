import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { appointmentPaths, type Appointment, type AppointmentRequest } from '@dental/contracts';
import { startTwilioTestServer, type TwilioTestServer } from '#api-test/mocks/twilio-test-server';
import { reminders } from '#api/db/schema';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { withJobQueue, type JobQueueApp } from '#api-test/support/job-queue-app';
import { notificationEnv, receivedBy } from '#api-test/support/notification-env';
import type { Services } from '#api/services';
import { appointmentWhen } from './reminder-message';

/**
 * Reminders end to end in one process: the API with its job queue and workers (pg-boss on the
 * test database), e-mail through a real SMTP server, SMS through a server speaking Twilio's API.
 */
let t: TestApp;
let factory: ReturnType<typeof factories>;
let smtp: SmtpInbox;
let twilio: TwilioTestServer;
let api: JobQueueApp;
let services: Services;
let app: FastifyInstance;

beforeAll(async () => {
  [smtp, twilio] = await Promise.all([startSmtpInbox(), startTwilioTestServer()]);
  t = await buildTestApp({ env: notificationEnv(smtp, twilio) });
  factory = factories(t);
  api = await withJobQueue(t);
  ({ app, services } = api);
});

afterAll(async () => {
  await api.close();
  await t.close();
  await Promise.all([smtp.close(), twilio.close()]);
});

const hour = 3600;

/** An appointment an hour from now whose one alert is due in `seconds`. */
function dueIn(seconds: number, overrides: Partial<AppointmentRequest> = {}): AppointmentRequest {
  const nowSeconds = Math.ceil(Date.now() / 1000);
  return {
    appointment_date: new Date((nowSeconds + hour) * 1000).toISOString(),
    note: 'Root canal, upper left molar',
    email_alert: true,
    sms_alert: false,
    alert_before: [nowSeconds + seconds],
    time_zone: 'America/Chicago',
    ...overrides,
  };
}

async function book(token: string, body: AppointmentRequest): Promise<Appointment> {
  const res = await app.inject({
    method: 'POST',
    url: appointmentPaths.list,
    headers: { authorization: `Bearer ${token}` },
    payload: body,
  });
  expect(res.statusCode).toBe(201);
  return res.json<Appointment>();
}

const mailTo = (email: string) => receivedBy(smtp, twilio).mail(email);
const smsTo = (phone: string) => receivedBy(smtp, twilio).sms(phone);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function statusesOf(appointmentId: string) {
  const rows = await t.db
    .select({ channel: reminders.channel, status: reminders.status, attempts: reminders.attempts })
    .from(reminders)
    .where(eq(reminders.appointmentId, appointmentId))
    .orderBy(reminders.channel);
  return rows;
}

describe('reminders', () => {
  it('arrive by e-mail and SMS at their time, once, with date, time, note and link', async () => {
    const member = await factory.loggedInMember({ phone: '+14155550123' });
    const appointment = await book(member.tokens.access, dueIn(2, { sms_alert: true }));

    const mail = await smtp.waitForMessageTo(member.email);
    await vi.waitFor(
      () => {
        expect(smsTo('+14155550123')).toHaveLength(1);
      },
      { timeout: 15_000, interval: 100 },
    );

    const { day, time } = appointmentWhen(
      new Date(appointment.appointment_date),
      'America/Chicago',
    );
    const link = `http://app.test/appointments/${appointment.id}/edit`;
    expect(mail.subject).toBe(`Reminder: your dental appointment on ${day}`);
    expect(mail.text).toContain(`${day} at ${time} (America/Chicago)`);
    expect(mail.text).toContain(link);
    const [sms] = smsTo('+14155550123');
    expect(sms?.body).toContain(`${day} at ${time}`);
    expect(sms?.body).toContain(link);
    // What the appointment is: the note in full by e-mail, shortened by SMS
    // (docs/decisions/patient-grade-defects.md).
    expect(mail.text).toContain('Your note: Root canal, upper left molar');
    expect(sms?.body).toContain('(Root canal, upper left molar)');

    await vi.waitFor(
      async () => {
        expect(await statusesOf(appointment.id)).toEqual([
          { channel: 'email', status: 'sent', attempts: 1 },
          { channel: 'sms', status: 'sent', attempts: 1 },
        ]);
      },
      { timeout: 5000, interval: 100 },
    );
    // Given time to go wrong, nothing is sent a second time.
    await sleep(1500);
    expect(mailTo(member.email)).toHaveLength(1);
    expect(smsTo('+14155550123')).toHaveLength(1);
  });

  it('retry with backoff while the SMS provider fails, then arrive', async () => {
    const member = await factory.loggedInMember({ phone: '+14155550124' });
    twilio.failNext(503, 2);
    const appointment = await book(
      member.tokens.access,
      dueIn(1, { email_alert: false, sms_alert: true }),
    );
    await vi.waitFor(
      () => {
        expect(smsTo('+14155550124')).toHaveLength(1);
      },
      { timeout: 30_000, interval: 200 },
    );
    await vi.waitFor(
      async () => {
        expect(await statusesOf(appointment.id)).toEqual([
          { channel: 'sms', status: 'sent', attempts: 3 },
        ]);
      },
      { timeout: 5000, interval: 100 },
    );
  });

  it('stop at a failure that retrying cannot fix, and record it', async () => {
    const member = await factory.loggedInMember({ phone: '+14155550125' });
    twilio.failNext(404, 1);
    const appointment = await book(
      member.tokens.access,
      dueIn(1, { email_alert: false, sms_alert: true }),
    );
    await vi.waitFor(
      async () => {
        expect(await statusesOf(appointment.id)).toEqual([
          { channel: 'sms', status: 'failed', attempts: 1 },
        ]);
      },
      { timeout: 15_000, interval: 200 },
    );
    expect(smsTo('+14155550125')).toEqual([]);
  });

  it('skip SMS for an account without a phone number', async () => {
    const member = await factory.loggedInMember({ phone: null });
    const appointment = await book(
      member.tokens.access,
      dueIn(1, { email_alert: false, sms_alert: true }),
    );
    await vi.waitFor(
      async () => {
        expect(await statusesOf(appointment.id)).toEqual([
          { channel: 'sms', status: 'skipped', attempts: 1 },
        ]);
      },
      { timeout: 15_000, interval: 200 },
    );
  });

  it('move with the appointment when it is edited: the old time sends nothing', async () => {
    const member = await factory.loggedInMember();
    const appointment = await book(member.tokens.access, dueIn(2));
    const moved = dueIn(5);
    const res = await app.inject({
      method: 'PUT',
      url: appointmentPaths.one(appointment.id),
      headers: { authorization: `Bearer ${member.tokens.access}` },
      payload: moved,
    });
    expect(res.statusCode).toBe(200);
    const movedAt = (moved.alert_before?.[0] ?? 0) * 1000;

    await sleep(3500);
    expect(mailTo(member.email)).toEqual([]);
    await smtp.waitForMessageTo(member.email);
    expect(Date.now()).toBeGreaterThanOrEqual(movedAt);
    await sleep(1000);
    expect(mailTo(member.email)).toHaveLength(1);
  });

  it('go only to a confirmed address: an unconfirmed one is skipped, the SMS still arrives', async () => {
    const member = await factory.loggedInMember({ phone: '+14155550177' }, { confirmed: false });
    const appointment = await book(member.tokens.access, dueIn(2, { sms_alert: true }));
    await vi.waitFor(
      async () => {
        expect(await statusesOf(appointment.id)).toEqual([
          { channel: 'email', status: 'skipped', attempts: 1 },
          { channel: 'sms', status: 'sent', attempts: 1 },
        ]);
      },
      { timeout: 15_000, interval: 100 },
    );
    const [row] = await t.db
      .select({ outcome: reminders.outcome })
      .from(reminders)
      .where(and(eq(reminders.appointmentId, appointment.id), eq(reminders.channel, 'email')));
    expect(row?.outcome).toBe('e-mail address not confirmed');
    expect(mailTo(member.email)).toEqual([]);
    expect(smsTo('+14155550177')).toHaveLength(1);
  });

  it('are cancelled with their appointment', async () => {
    const member = await factory.loggedInMember();
    const appointment = await book(member.tokens.access, dueIn(2));
    const res = await app.inject({
      method: 'DELETE',
      url: appointmentPaths.one(appointment.id),
      headers: { authorization: `Bearer ${member.tokens.access}` },
    });
    expect(res.statusCode).toBe(204);
    await sleep(4000);
    expect(mailTo(member.email)).toEqual([]);
  });

  it('saved by a process without the queue are queued by the sweep and arrive', async () => {
    const member = await factory.loggedInMember();
    // The test app's own services have no job queue, like an API process whose enqueue failed.
    await factory.appointment(member, dueIn(2));
    const [unqueued] = await t.db.select().from(reminders).where(eq(reminders.status, 'pending'));
    expect(unqueued?.queuedAt).toBeNull();

    expect(await services.reminders.sweep()).toBe(1);
    await smtp.waitForMessageTo(member.email);
  });
});
