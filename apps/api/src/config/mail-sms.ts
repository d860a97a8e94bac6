import { z } from 'zod';
import { ConfigError, httpUrl, optional } from './fields';

/** E-mail through SMTP and SMS through Twilio; unset, both go to outbox folders in DATA_DIR. */
export const mailSmsEnv = z.object({
  SMTP_URL: optional(
    z.url({ protocol: /^smtps?$/, error: 'SMTP_URL must be an smtp:// or smtps:// URL.' }),
  ),
  MAIL_FROM: optional(z.string()),
  TWILIO_ACCOUNT_SID: optional(z.string()),
  TWILIO_AUTH_TOKEN: optional(z.string()),
  TWILIO_FROM: optional(z.string()),
  TWILIO_BASE_URL: optional(httpUrl('TWILIO_BASE_URL')),
});

export interface MailSmsSection {
  /** Unset means mail is written as .eml files to `dataDir/outbox/mail`. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Unset means SMS are written as .json files to `dataDir/outbox/sms`. */
  twilio: TwilioSettings | undefined;
}

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  from: string;
  /** Another origin for Twilio's REST API (tests use a local server); unset means Twilio's. */
  baseUrl?: string;
}

/** The sender's name defaults to the company's. */
export function parseMailSms(
  vars: z.infer<typeof mailSmsEnv>,
  companyName: string,
): MailSmsSection {
  return {
    smtpUrl: vars.SMTP_URL,
    mailFrom: vars.MAIL_FROM ?? `"${companyName}" <no-reply@dentalcompanion.example>`,
    twilio: parseTwilio(vars),
  };
}

/** Twilio when its account SID, auth token and sender are all set; some but not all is an error. */
function parseTwilio(vars: z.infer<typeof mailSmsEnv>): TwilioSettings | undefined {
  const { TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken, TWILIO_FROM: from } = vars;
  if (accountSid === undefined && authToken === undefined && from === undefined) return undefined;
  if (accountSid === undefined || authToken === undefined || from === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM must be set together.',
    );
  }
  return {
    accountSid,
    authToken,
    from,
    ...(vars.TWILIO_BASE_URL === undefined ? {} : { baseUrl: vars.TWILIO_BASE_URL }),
  };
}
