import webpush from 'web-push';
import type { PushPayload } from '@dental/contracts';
import type { VapidKeys } from '#api/config';

/** Where a push goes: a browser's subscription as it was stored. */
export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * The push service did not take the push. `gone` (404, 410) means the subscription ended: the
 * browser unsubscribed or the service dropped it. `retryable` says whether trying again later can
 * help (rate limit, service or network failure) or not (a request the service refuses).
 */
export class PushDeliveryError extends Error {
  override name = 'PushDeliveryError';

  constructor(
    message: string,
    readonly retryable: boolean,
    /** The push service's HTTP status; undefined when no answer came. */
    readonly status: number | undefined,
  ) {
    super(message);
  }
}

export interface PushSenderSettings {
  keys: VapidKeys;
  subject: string;
}

/** How long the push service keeps an undelivered push while the device is offline: a day. */
const timeToLiveSeconds = 24 * 60 * 60;
const requestTimeoutMs = 15_000;

/**
 * Sends Web Push messages: the payload encrypted for the browser (RFC 8291, aes128gcm) and the
 * request signed with our VAPID key (RFC 8292), both by the `web-push` library; the request
 * itself goes through fetch, which also reaches the local push service of tests over http
 * (web-push's own sender speaks https only).
 */
export class WebPushSender {
  constructor(private readonly settings: PushSenderSettings) {}

  async send(target: PushTarget, payload: PushPayload): Promise<void> {
    const request = webpush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      JSON.stringify(payload),
      {
        vapidDetails: { subject: this.settings.subject, ...this.settings.keys },
        TTL: timeToLiveSeconds,
        contentEncoding: 'aes128gcm',
        urgency: 'high',
      },
    );
    let response: Response;
    try {
      response = await fetch(request.endpoint, {
        method: request.method,
        headers: request.headers,
        body: new Uint8Array(request.body),
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
    } catch (error) {
      const reason = error instanceof Error ? error.name : 'error';
      throw new PushDeliveryError(`The push service did not answer (${reason}).`, true, undefined);
    }
    // The answer's body is the service's, and says nothing we need.
    await response.body?.cancel();
    if (response.ok) return;
    const status = response.status;
    throw new PushDeliveryError(
      `The push service answered ${String(status)}.`,
      status === 429 || status >= 500,
      status,
    );
  }
}

/** The subscription ended: the push service no longer knows it. */
export function subscriptionGone(error: unknown): boolean {
  return error instanceof PushDeliveryError && (error.status === 404 || error.status === 410);
}
