import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { accountPaths, forgetPasswordSuccess } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, uniqueEmail } from '#api-test/factories';
import { isSignUpConfirmation, startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';

let inbox: SmtpInbox;
let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await buildTestApp({ env: { SMTP_URL: inbox.url } });
  factory = factories(t);
});
afterAll(async () => {
  await t.close();
  await inbox.close();
});

const forget = (email: string) =>
  t.request('POST', accountPaths.forgetPassword, { body: { email } });

describe('forget-password answers before any lookup (docs/decisions/password-reset.md)', () => {
  it('answers a known address exactly like an unknown one, before its reset key is written', async () => {
    const member = await factory.member();
    // Writing this member's reset key fails: an answer that waited for it would be a 500.
    await t.db.execute(
      sql.raw(`CREATE FUNCTION refuse_reset_key() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'reset key refused'; END $$`),
    );
    await t.db.execute(
      sql.raw(`CREATE TRIGGER refuse_reset_key BEFORE INSERT ON password_reset_keys FOR EACH ROW
        WHEN (NEW.user_id = '${member.id}') EXECUTE FUNCTION refuse_reset_key()`),
    );

    const known = await forget(member.email);
    const unknown = await forget(uniqueEmail());
    for (const res of [known, unknown]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ message: forgetPasswordSuccess });
    }
    expect(known.headers['content-length']).toBe(unknown.headers['content-length']);
    await t.services.passwordResets.drain();
    expect(inbox.messages.filter((mail) => !isSignUpConfirmation(mail))).toHaveLength(0);
  });

  it('still e-mails the link after the answer', async () => {
    const member = await factory.member();
    expect((await forget(member.email)).statusCode).toBe(200);
    await t.services.passwordResets.drain();
    const mail = await inbox.waitForMessageTo(member.email);
    expect(mail.text).toMatch(/update-password\?key=/);
  });
});
