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

/** Every e-mail the server under test has written to `email` so far, parsed, oldest first (the
 *  outbox names its files so that a plain sort is send order). */
export async function mailTo(email: string, dataDir?: string): Promise<ParsedMail[]> {
  const dir = outboxDir(dataDir);
  const names = await readdir(dir).catch((error: unknown) => {
    // The outbox folder appears with the first message.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  });
  const address = email.toLowerCase();
  const mails = await Promise.all(
    names
      .filter((name) => name.endsWith('.eml'))
      .sort()
      .map(async (name) => {
        const raw = await readFile(path.join(dir, name));
        // Every journey's account reads its confirmation mail here, so the outbox of a whole run
        // is read many times: only a file that names the address at all is parsed.
        return raw.toString('latin1').toLowerCase().includes(address)
          ? simpleParser(raw)
          : undefined;
      }),
  );
  return mails.filter(
    (mail): mail is ParsedMail => mail !== undefined && recipients(mail).includes(address),
  );
}

/** Waits for an e-mail to `email` carrying a link to `screen` (e.g. '/update-password') with a
 *  key, and returns the newest such link; `dataDir` names a server's other than the journeys'. */
async function waitForKeyLink(
  email: string,
  publicUrl: string,
  screen: string,
  dataDir?: string,
): Promise<URL> {
  const escapedUrl = `${publicUrl}${screen}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const linkPattern = new RegExp(`${escapedUrl}\\?key=[^\\s"'<>]+`);
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        link = (await mailTo(email, dataDir))
          .map((mail) => linkPattern.exec(mail.text ?? '')?.[0])
          .filter(Boolean)
          .at(-1);
        return link;
      },
      {
        message: `an e-mail to ${email} linking ${screen} in ${outboxDir(dataDir)}`,
        timeout: 15_000,
      },
    )
    .toBeDefined();
  // With no `publicUrl` the link is matched from its path on: the base only lets it parse.
  return new URL(link ?? '', 'http://any-origin.invalid');
}

/** Waits for the password-reset e-mail to `email` and returns the link it carries. */
export function waitForResetLink(email: string, publicUrl: string): Promise<URL> {
  return waitForKeyLink(email, publicUrl, '/update-password');
}

/** Waits for the newest e-mail-confirmation link to `email` and returns its key
 *  (docs/decisions/email-confirmation.md). */
export async function waitForConfirmationKey(email: string, dataDir?: string): Promise<string> {
  const link = await waitForKeyLink(email, '', '/confirm-email', dataDir);
  return link.searchParams.get('key') ?? '';
}
