import type { AppointmentRequest } from '@dental/contracts';
import type { TwilioTestServer } from '../mocks/twilio-test-server';
import { isSignUpConfirmation, type SmtpInbox } from '../smtp-inbox';

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

/** An appointment whose reminders the member chose by SMS: their choice of channel for notices. */
export const smsAlertAppointment: AppointmentRequest = {
  appointment_date: '2030-01-15T10:00:00.000Z',
  email_alert: false,
  sms_alert: true,
  alert_before: [],
};

/** What the test servers received for one phone number or e-mail address. */
export function receivedBy(smtp: SmtpInbox, twilio: TwilioTestServer) {
  return {
    sms: (phone: string) => twilio.received.filter((sms) => sms.to === phone),
    mail: (email: string) =>
      smtp.messages.filter(
        (mail) =>
          !isSignUpConfirmation(mail) &&
          [mail.to ?? []]
            .flat()
            .some((to) => to.value.some((entry) => entry.address === email.toLowerCase())),
      ),
  };
}
