import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { messageNotices } from '#api/db/schema';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { startTwilioTestServer, type TwilioTestServer } from '#api-test/mocks/twilio-test-server';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { staffFactories, type TestStaff } from '#api-test/staff';
import { answeredReview, reviewQuestion, reviewReport } from '#api-test/support/answered-review';
import { withJobQueue, type JobQueueApp } from '#api-test/support/job-queue-app';
import {
  notificationEnv,
  receivedBy,
  smsAlertAppointment,
} from '#api-test/support/notification-env';
import { reviewAnsweredSubject } from '../messages/message-notices.service';

/**
 * An answered review's notices end to end in one process, as a staff reply's are: the API with
 * its job queue and workers, e-mail through a real SMTP server, SMS through a server speaking
 * Twilio's API.
 */
let t: TestApp;
let smtp: SmtpInbox;
let twilio: TwilioTestServer;
let api: JobQueueApp;
let dentist: TestStaff;

beforeAll(async () => {
  [smtp, twilio] = await Promise.all([startSmtpInbox(), startTwilioTestServer()]);
  t = await buildTestApp({ env: notificationEnv(smtp, twilio) });
  api = await withJobQueue(t);
  dentist = await staffFactories(t).staff('practitioner');
});

afterAll(async () => {
  await api.close();
  await t.close();
  await Promise.all([smtp.close(), twilio.close()]);
});

const smsTo = (phone: string) => receivedBy(smtp, twilio).sms(phone);
const mailTo = (email: string) => receivedBy(smtp, twilio).mail(email);

async function statusesOf(reviewId: string) {
  return t.db
    .select({ channel: messageNotices.channel, status: messageNotices.status })
    .from(messageNotices)
    .where(eq(messageNotices.reviewId, reviewId))
    .orderBy(messageNotices.channel);
}

describe('the notice of an answered review', () => {
  it('is one e-mail and one SMS saying only that a dentist answered, with a link', async () => {
    const phone = '+14155550191';
    const member = await factories(t).member({ phone });
    await factories(t).appointment(member, smsAlertAppointment);
    const { reviewId } = await answeredReview(t, api.services, dentist, member);

    const mail = await smtp.waitForMessageTo(member.email, new RegExp(reviewAnsweredSubject));
    await vi.waitFor(
      async () => {
        expect(await statusesOf(reviewId)).toEqual([
          { channel: 'email', status: 'sent' },
          { channel: 'sms', status: 'sent' },
        ]);
      },
      { timeout: 15_000, interval: 100 },
    );
    const [sms] = smsTo(phone);
    const link = `http://app.test/reviews/${reviewId}`;
    expect(mail.text).toContain(link);
    expect(sms?.body).toContain(link);
    for (const text of [mail.subject ?? '', mail.text ?? '', String(mail.html), sms?.body ?? '']) {
      expect(text.toLowerCase()).toContain('dentist has answered');
      for (const secret of [reviewQuestion, reviewReport, 'cavity', dentist.username]) {
        expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
      }
    }
    // A job delivered again (a worker that outlived its attempt) and a sweep find it sent.
    const [emailNotice] = await t.db
      .select({ id: messageNotices.id })
      .from(messageNotices)
      .where(eq(messageNotices.reviewId, reviewId));
    await api.services.messageNotices.deliver(emailNotice?.id ?? '', false);
    await api.services.messageNotices.sweep();
    // Time for a second copy to show up, if one were coming.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mailTo(member.email)).toHaveLength(1);
    expect(smsTo(phone)).toHaveLength(1);
  });

  it('is e-mail only for a member who never chose SMS', async () => {
    const phone = '+14155550192';
    const member = await factories(t).member({ phone });
    const { reviewId } = await answeredReview(t, api.services, dentist, member);
    await smtp.waitForMessageTo(member.email, new RegExp(reviewAnsweredSubject));
    await vi.waitFor(
      async () => {
        expect(await statusesOf(reviewId)).toEqual([{ channel: 'email', status: 'sent' }]);
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(smsTo(phone)).toEqual([]);
  });
});
