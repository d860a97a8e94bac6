import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { LoadOnce } from '#api/lib/load-once';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Sends e-mail; the embedded default writes .eml files, SMTP_URL switches to a real server. */
export interface Mailer {
  /** Where mail goes, for the start-up banner (never includes a password). */
  readonly description: string;
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

/** A nodemailer transport made on the first message: most starts send none at once. */
function transportOnFirstUse(
  create: (nodemailer: typeof import('nodemailer').default) => Transporter,
): LoadOnce<Transporter> {
  return new LoadOnce(async () => create((await import('nodemailer')).default));
}

async function closeTransport(transport: LoadOnce<Transporter>): Promise<void> {
  (await transport.ifLoaded())?.close();
}

/** Writes each message as an RFC 5322 .eml file named so that a plain sort is send order. */
export class OutboxMailer implements Mailer {
  private readonly transport = transportOnFirstUse((nodemailer) =>
    nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' }),
  );

  constructor(
    readonly folder: string,
    private readonly from: string,
  ) {}

  get description(): string {
    return `.eml files in ${this.folder}`;
  }

  async send(message: MailMessage): Promise<void> {
    const info = await (await this.transport.get()).sendMail({ from: this.from, ...message });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(this.folder, `${stamp}-${randomBytes(4).toString('hex')}.eml`);
    await mkdir(this.folder, { recursive: true });
    // The message was built with `buffer: true`, so it is a Buffer rather than a stream.
    await writeFile(file, info.message as Buffer, { flag: 'wx', mode: 0o600 });
  }

  close(): Promise<void> {
    return closeTransport(this.transport);
  }
}

export class SmtpMailer implements Mailer {
  private readonly transport;
  readonly description: string;

  constructor(url: string, from: string) {
    this.transport = transportOnFirstUse((nodemailer) => nodemailer.createTransport(url, { from }));
    const shown = new URL(url);
    if (shown.password !== '') shown.password = '***';
    this.description = `SMTP at ${shown.toString()}`;
  }

  async send(message: MailMessage): Promise<void> {
    await (await this.transport.get()).sendMail(message);
  }

  close(): Promise<void> {
    return closeTransport(this.transport);
  }
}

export function createMailer(config: {
  smtpUrl: string | undefined;
  mailFrom: string;
  dataDir: string;
}): Mailer {
  return config.smtpUrl === undefined
    ? new OutboxMailer(path.join(config.dataDir, 'outbox', 'mail'), config.mailFrom)
    : new SmtpMailer(config.smtpUrl, config.mailFrom);
}
