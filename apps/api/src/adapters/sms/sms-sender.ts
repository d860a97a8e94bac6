/** A text message to one phone number (E.164). */
export interface SmsMessage {
  to: string;
  body: string;
}

export interface SentSms {
  /** The provider's id for the message (Twilio's SID, the outbox file's name). */
  id: string;
}

/** Sends SMS: to an outbox folder by default, through Twilio when configured
 *  (docs/decisions/architecture.md#services-and-embedded-defaults). */
export interface SmsSender {
  send(message: SmsMessage): Promise<SentSms>;
}

/**
 * The provider did not take the message. `retryable` says whether trying again later can help
 * (rate limit, provider or network failure) or not (bad number, bad credentials), so a job can
 * retry the first kind with backoff and give up on the second.
 */
export class SmsDeliveryError extends Error {
  override name = 'SmsDeliveryError';

  constructor(
    message: string,
    readonly retryable: boolean,
    /** The provider's HTTP status; undefined when no answer came. */
    readonly status: number | undefined,
    /** The underlying failure, only where it carries no personal data. */
    cause: unknown,
  ) {
    super(message, { cause });
  }
}
