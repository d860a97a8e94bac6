import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer, OutboxMailer, SmtpMailer } from './mailer';

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('OutboxMailer', () => {
  it('writes each message as an .eml file, in send order by name', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dental-mail-'));
    made.push(dataDir);
    const mailer = createMailer({
      smtpUrl: undefined,
      mailFrom: 'Clinic <no-reply@clinic.example>',
      dataDir,
    });
    expect(mailer).toBeInstanceOf(OutboxMailer);
    const folder = path.join(dataDir, 'outbox', 'mail');
    expect(mailer.description).toContain(folder);

    await mailer.send({ to: 'ann@example.com', subject: 'First', text: 'One', html: '<p>One</p>' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await mailer.send({
      to: 'bob@example.com',
      subject: 'Second',
      text: 'Two',
      html: '<p>Two</p>',
    });

    const files = (await readdir(folder)).sort();
    expect(files).toHaveLength(2);
    expect(files.every((file) => file.endsWith('.eml'))).toBe(true);
    const [first, second] = await Promise.all(
      files.map(async (file) => simpleParser(await readFile(path.join(folder, file)))),
    );
    expect(first).toMatchObject({ subject: 'First', text: 'One' });
    expect(first?.to).toMatchObject({ text: 'ann@example.com' });
    expect(first?.from).toMatchObject({ text: '"Clinic" <no-reply@clinic.example>' });
    expect(second).toMatchObject({ subject: 'Second' });
    await mailer.close();
  });
});

describe('createMailer', () => {
  it('uses SMTP when SMTP_URL is set, and hides its password', async () => {
    const mailer = createMailer({
      smtpUrl: 'smtp://user:hunter2@127.0.0.1:2525',
      mailFrom: 'x@example.com',
      dataDir: os.tmpdir(),
    });
    expect(mailer).toBeInstanceOf(SmtpMailer);
    expect(mailer.description).toContain('127.0.0.1:2525');
    expect(mailer.description).not.toContain('hunter2');
    await mailer.close();
  });
});
