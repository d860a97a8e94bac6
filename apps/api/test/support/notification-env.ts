import type { TwilioTestServer } from '../mocks/twilio-test-server';
import type { SmtpInbox } from '../smtp-inbox';

/** The environment of an app whose e-mail goes to the SMTP test server and SMS to the Twilio
 *  one, with a job queue that polls and retries quickly (reminders, message notices). */
export const notificationEnv = (smtp: SmtpInbox, twilio: TwilioTestServer) => ({
  SMTP_URL: smtp.url,
  TWILIO_ACCOUNT_SID: twilio.accountSid,
  TWILIO_AUTH_TOKEN: twilio.authToken,
  TWILIO_FROM: '+15005550006',
  TWILIO_BASE_URL: twilio.baseUrl,
  JOB_POLL_SECONDS: '0.5',
  REMINDER_ATTEMPT_SECONDS: '5',
  REMINDER_RETRY_DELAY_SECONDS: '1',
});
