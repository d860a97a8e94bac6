import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '#api/clock';
import { OutboxSms } from './outbox-sms';

describe('OutboxSms', () => {
  let dataDir: string;
  let folder: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'dental-outbox-'));
    folder = path.join(dataDir, 'outbox', 'sms');
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes each message as a JSON file, creating the folder', async () => {
    const clock: Clock = { now: () => new Date('2025-03-01T10:00:00.000Z') };
    const sent = await new OutboxSms(folder, clock).send({ to: '+14155550123', body: 'Hello' });

    expect(sent.id).toMatch(/^2025-03-01T10-00-00-000Z-[0-9a-f]{8}$/);
    expect(await readdir(folder)).toEqual([`${sent.id}.json`]);
    const file = path.join(folder, `${sent.id}.json`);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      id: sent.id,
      to: '+14155550123',
      body: 'Hello',
      sent_at: '2025-03-01T10:00:00.000Z',
    });
    // Phone numbers are personal data: owner-only.
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('names files so that sorting them gives the order they were sent in', async () => {
    let minute = 0;
    const clock: Clock = {
      now: () => new Date(Date.UTC(2025, 2, 1, 9, 58 + minute++)),
    };
    const outbox = new OutboxSms(folder, clock);
    const ids: string[] = [];
    for (const body of ['first', 'second', 'third', 'fourth']) {
      ids.push((await outbox.send({ to: '+14155550123', body })).id);
    }
    const files = (await readdir(folder)).sort();
    expect(files).toEqual(ids.map((id) => `${id}.json`));
    const bodies = await Promise.all(
      files.map(
        async (name) =>
          (JSON.parse(await readFile(path.join(folder, name), 'utf8')) as { body: string }).body,
      ),
    );
    expect(bodies).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('keeps messages sent in the same millisecond apart', async () => {
    const clock: Clock = { now: () => new Date('2025-03-01T10:00:00.000Z') };
    const outbox = new OutboxSms(folder, clock);
    await Promise.all([1, 2, 3].map((n) => outbox.send({ to: '+14155550123', body: `n${n}` })));
    expect(await readdir(folder)).toHaveLength(3);
  });
});
