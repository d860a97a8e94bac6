import type twilio from 'twilio';
import { LoadOnce } from '#api/lib/load-once';
import { SmsDeliveryError, type SentSms, type SmsMessage, type SmsSender } from './sms-sender';

export interface TwilioSmsOptions {
  accountSid: string;
  authToken: string;
  /** The sending number (E.164) or messaging service sender. */
  from: string;
  /** Origin of the REST API; default Twilio's. Tests point it at a local server. */
  baseUrl?: string;
  /** Give up on an unanswered request after this long; default 10 s. */
  timeoutMs?: number;
}

/** The HTTP status and Twilio error code of an answer Twilio refused with, if one came. */
function refusalOf(error: unknown): { status: number; code: unknown } | undefined {
  if (error instanceof Error && 'status' in error && typeof error.status === 'number') {
    return { status: error.status, code: 'code' in error ? error.code : undefined };
  }
  return undefined;
}

/** Sends through Twilio's Messages API. */
export class TwilioSms implements SmsSender {
  private readonly client = new LoadOnce(async (): Promise<twilio.Twilio> => {
    const { default: createClient } = await import('twilio');
    // The SDK's own 429 retries are off: the reminder job retries with backoff and stays
    // visible in the queue, instead of a request blocking a worker.
    const client = createClient(this.options.accountSid, this.options.authToken, {
      autoRetry: false,
      timeout: this.options.timeoutMs ?? 10_000,
    });
    if (this.options.baseUrl !== undefined) client.api.baseUrl = this.options.baseUrl;
    return client;
  });

  constructor(private readonly options: TwilioSmsOptions) {}

  async send(message: SmsMessage): Promise<SentSms> {
    const client = await this.client.get();
    try {
      const sent = await client.messages.create({
        to: message.to,
        from: this.options.from,
        body: message.body,
      });
      return { id: sent.sid };
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal === undefined) {
        // No answer at all (network, timeout): later may work.
        const reason = error instanceof Error ? error.message : String(error);
        throw new SmsDeliveryError(
          `Twilio could not be reached: ${reason}`,
          true,
          undefined,
          error,
        );
      }
      // Twilio's own message can quote the phone number, so neither it nor the original error
      // travels on: the status and code identify the problem without personal data in logs.
      const retryable = refusal.status === 429 || refusal.status >= 500;
      throw new SmsDeliveryError(
        `Twilio refused the SMS: HTTP ${refusal.status}, error code ${String(refusal.code)}`,
        retryable,
        refusal.status,
        undefined,
      );
    }
  }
}
