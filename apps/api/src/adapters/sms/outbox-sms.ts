import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { systemClock, type Clock } from '#api/clock';
import { atomicWriteFile } from '#api/lib/atomic-write-file';
import type { SentSms, SmsMessage, SmsSender } from './sms-sender';

/**
 * Writes each message as a JSON file in a folder (by default DATA_DIR/outbox/sms) instead of
 * sending it. Names start with the UTC time, so listing the folder sorted gives the send order.
 */
export class OutboxSms implements SmsSender {
  constructor(
    private readonly folder: string,
    private readonly clock: Clock = systemClock,
  ) {}

  async send(message: SmsMessage): Promise<SentSms> {
    const sentAt = this.clock.now().toISOString();
    // 2025-03-01T10-00-00-000Z-1a2b3c4d: sortable, and valid on every filesystem.
    const id = `${sentAt.replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
    const record = { id, to: message.to, body: message.body, sent_at: sentAt };
    await atomicWriteFile(
      path.join(this.folder, `${id}.json`),
      `${JSON.stringify(record, null, 2)}\n`,
    );
    return { id };
  }
}
