import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { clinicMessagePaths, createdMessage, messagePaths } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { startTwilioTestServer, type TwilioTestServer } from '#api-test/mocks/twilio-test-server';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { staffFactories } from '#api-test/staff';
import { withJobQueue, type JobQueueApp } from '#api-test/support/job-queue-app';
import {
  notificationEnv,
  receivedBy,
  smsAlertAppointment,
} from '#api-test/support/notification-env';
import { messageNotices, messages } from '#api/db/schema';

/**
 * A staff reply's notices end to end in one process: the API with its job queue and workers,
 * e-mail through a real SMTP server, SMS through a server speaking Twilio's API.
 */
let t: TestApp;
let factory: ReturnType<typeof factories>;
let staffFactory: ReturnType<typeof staffFactories>;
let smtp: SmtpInbox;
let twilio: TwilioTestServer;
let api: JobQueueApp;
let app: FastifyInstance;

beforeAll(async () => {
  [smtp, twilio] = await Promise.all([startSmtpInbox(), startTwilioTestServer()]);
  t = await buildTestApp({ env: notificationEnv(smtp, twilio) });
  factory = factories(t);
  staffFactory = staffFactories(t);
  api = await withJobQueue(t);
  ({ app } = api);
});

afterAll(async () => {
  await api.close();
  await t.close();
  await Promise.all([smtp.close(), twilio.close()]);
});

async function send(token: string, url: string, payload: unknown): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}` },
    payload: payload as object,
  });
  expect(res.statusCode, res.body).toBe(201);
  return createdMessage.parse(res.json()).id;
}

const smsTo = (phone: string) => receivedBy(smtp, twilio).sms(phone);
const mailTo = (email: string) => receivedBy(smtp, twilio).mail(email);

async function statusesOf(messageId: string) {
  return t.db
    .select({ channel: messageNotices.channel, status: messageNotices.status })
    .from(messageNotices)
    .where(eq(messageNotices.messageId, messageId))
    .orderBy(messageNotices.channel);
}

describe('the notice of a staff reply', () => {
  it('is one e-mail and one SMS saying only that the practice wrote, with a link', async () => {
    const member = await factory.loggedInMember({ phone: '+14155550177' });
    await factory.appointment(member, smsAlertAppointment);
    const ada = await staffFactory.loggedInStaff('practitioner');
    const subject = 'Swelling near wisdom tooth';
    const threadId = await send(member.tokens.access, messagePaths.threads, {
      subject,
      body: 'My jaw is swollen.',
    });
    const reply = 'Take ibuprofen and come in tomorrow at nine.';
    const messageId = await send(ada.tokens.access, clinicMessagePaths.thread(threadId), {
      body: reply,
    });

    const mail = await smtp.waitForMessageTo(member.email);
    await vi.waitFor(
      async () => {
        expect(await statusesOf(messageId)).toEqual([
          { channel: 'email', status: 'sent' },
          { channel: 'sms', status: 'sent' },
        ]);
      },
      { timeout: 15_000, interval: 100 },
    );
    const [sms] = smsTo('+14155550177');
    const link = `http://app.test/messages/${threadId}`;
    expect(mail.text).toContain(link);
    expect(sms?.body).toContain(link);
    for (const text of [mail.subject ?? '', mail.text ?? '', String(mail.html), sms?.body ?? '']) {
      expect(text.toLowerCase()).toContain('new message');
      for (const secret of [subject, 'Swelling', reply, 'ibuprofen', 'swollen']) {
        expect(text).not.toContain(secret);
      }
    }
    // Time for a second copy to show up, if one were coming.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mailTo(member.email)).toHaveLength(1);
    expect(smsTo('+14155550177')).toHaveLength(1);
  });

  it('is e-mail only for a member who never chose SMS, and none for the member’s own messages', async () => {
    const member = await factory.loggedInMember({ phone: '+14155550178' });
    const ada = await staffFactory.loggedInStaff('practitioner');
    const threadId = await send(member.tokens.access, messagePaths.threads, {
      subject: 'Hello',
      body: 'Question',
    });
    await send(member.tokens.access, messagePaths.thread(threadId), { body: 'Another' });
    const messageId = await send(ada.tokens.access, clinicMessagePaths.thread(threadId), {
      body: 'Answer',
    });
    await smtp.waitForMessageTo(member.email);
    await vi.waitFor(
      async () => {
        expect(await statusesOf(messageId)).toEqual([{ channel: 'email', status: 'sent' }]);
      },
      { timeout: 15_000, interval: 100 },
    );
    const members = await t.db
      .select({ id: messages.id })
      .from(messages)
      .where(eq(messages.authorRole, 'member'));
    for (const { id } of members) expect(await statusesOf(id)).toEqual([]);
    expect(smsTo('+14155550178')).toEqual([]);
  });
});
