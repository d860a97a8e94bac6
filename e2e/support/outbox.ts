import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { expect } from '@playwright/test';
import { e2eDataPath } from './data-dir';

/** The shared e2e server's outbox, or that of a journey's own server in `dataDir`. */
const outboxDir = (dataDir?: string) =>
  dataDir === undefined ? e2eDataPath('outbox', 'mail') : path.join(dataDir, 'outbox', 'mail');

function recipients(mail: ParsedMail): string[] {
  const to: AddressObject[] = mail.to === undefined ? [] : [mail.to].flat();
  return to.flatMap((group) => group.value.map((address) => (address.address ?? '').toLowerCase()));
}

/** Every e-mail the server under test has written to `email` so far, parsed. */
export async function mailTo(email: string, dataDir?: string): Promise<ParsedMail[]> {
  const dir = outboxDir(dataDir);
  const names = await readdir(dir).catch((error: unknown) => {
    // The outbox folder appears with the first message.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  });
  const mails = await Promise.all(
    names
      .filter((name) => name.endsWith('.eml'))
      .map(async (name) => simpleParser(await readFile(path.join(dir, name)))),
  );
  return mails.filter((mail) => recipients(mail).includes(email.toLowerCase()));
}

/** Waits for the password-reset e-mail to `email` and returns the link it carries. */
export async function waitForResetLink(email: string, publicUrl: string): Promise<URL> {
  const escapedUrl = publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const linkPattern = new RegExp(`${escapedUrl}/update-password\\?key=[^\\s"'<>]+`);
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const bodies = (await mailTo(email)).map((mail) => mail.text ?? '');
        link = bodies.map((body) => linkPattern.exec(body)?.[0]).find(Boolean);
        return link;
      },
      { message: `a reset e-mail to ${email} in ${outboxDir()}`, timeout: 15_000 },
    )
    .toBeDefined();
  return new URL(link ?? '');
}
