import path from 'node:path';
import type { Clock } from '#api/clock';
import type { TwilioSettings } from '#api/config';
import { OutboxSms } from './outbox-sms';
import type { SmsSender } from './sms-sender';
import { TwilioSms } from './twilio-sms';

/** Twilio when configured, otherwise JSON files in DATA_DIR/outbox/sms
 *  (docs/decisions/architecture.md#services-and-embedded-defaults). */
export function createSmsSender(
  config: { twilio: TwilioSettings | undefined; dataDir: string },
  clock: Clock,
): SmsSender {
  return config.twilio === undefined
    ? new OutboxSms(path.join(config.dataDir, 'outbox', 'sms'), clock)
    : new TwilioSms(config.twilio);
}
