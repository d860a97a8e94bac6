import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { vi } from 'vitest';

export interface SmtpInbox {
  /** smtp://127.0.0.1:<port>, for SMTP_URL. */
  url: string;
  messages: ParsedMail[];
  /**
   * Waits until a message to `address` (with a subject that matches `subject`, when given) has
   * arrived and answers the latest one. A test whose member already has e-mail needs the subject
   * when the one it waits for is sent by a job, after the answer the test saw.
   */
  waitForMessageTo(address: string, subject?: RegExp): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** The link every new member is mailed at sign-up (docs/decisions/email-confirmation.md). A
 *  test that waits for "the" mail to a member means the one its own step sent, so the waits and
 *  counts below leave this one out unless the subject asked for names it. */
export const isSignUpConfirmation = (mail: ParsedMail) =>
  (mail.subject ?? '').startsWith('Confirm your e-mail address for ');

/** The addresses a mail was sent to, lower-cased. */
export const recipients = (mail: ParsedMail) =>
  [mail.to ?? []].flat().flatMap((to) => to.value.map((entry) => entry.address?.toLowerCase()));

/** A real SMTP server on 127.0.0.1 that parses everything it receives. */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const messages: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          messages.push(mail);
          callback();
        },
        (error: unknown) => {
          callback(error instanceof Error ? error : new Error(String(error)));
        },
      );
    },
  });
  // A client killed mid-session (the scale-out drill kills a worker) resets its connection: the
  // client's failure, not the inbox's, and no reason to bring down the process it runs in.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMessageTo: (address, subject) =>
      vi.waitFor(
        () => {
          const mail = messages.findLast(
            (message) =>
              recipients(message).includes(address.toLowerCase()) &&
              (subject === undefined
                ? !isSignUpConfirmation(message)
                : subject.test(message.subject ?? '')),
          );
          if (mail === undefined) {
            const like = subject === undefined ? '' : ` with a subject like ${String(subject)}`;
            throw new Error(`no e-mail to ${address}${like} yet`);
          }
          return mail;
        },
        { timeout: 10_000, interval: 20 },
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(resolve);
      }),
  };
}
