import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import {
  accountPaths,
  emailConfirmedMessage,
  invalidConfirmationKeyMessage,
  sameEmailMessage,
  type Account,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, strongPassword, uniqueEmail } from '#api-test/factories';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { newestAuditRow } from '#api-test/support/audit-rows';
import { emailConfirmations, users } from '#api/db/schema';
import { emailTakenMessage } from './registration.service';

/** Sign-up's confirmation link, resending it, confirming it, and a change of address, with the
 *  e-mail going through a real SMTP server (docs/decisions/email-confirmation.md). */
let t: TestApp;
let factory: ReturnType<typeof factories>;
let smtp: SmtpInbox;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  t = await buildTestApp({ env: { SMTP_URL: smtp.url } });
  factory = factories(t);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const confirmSubject = /^Confirm your e-mail address for /;

/** The key of the newest confirmation link mailed to `address`. */
async function keyMailedTo(address: string): Promise<string> {
  const mail = await smtp.waitForMessageTo(address, confirmSubject);
  return keyOf(mail);
}

function keyOf(mail: ParsedMail): string {
  const match = /\/confirm-email\?key=([\w-]+)/.exec(mail.text ?? '');
  if (match?.[1] === undefined) throw new Error('no confirmation link in the e-mail');
  return decodeURIComponent(match[1]);
}

const confirm = (key: string) => t.request('POST', accountPaths.confirmEmail, { body: { key } });
const accountOf = async (token: string) =>
  (await t.request('GET', accountPaths.account, { token })).json<Account>();

async function signUp() {
  const email = uniqueEmail('signup');
  const password = strongPassword();
  const res = await t.request('POST', accountPaths.register, {
    body: { email, username: 'Nora Newcomer', password, phone: null },
  });
  expect(res.statusCode).toBe(201);
  const tokens = await factory.login({ email, password });
  return { id: res.json<{ id: string }>().id, email, password, tokens };
}

describe('confirming the address given at sign-up', () => {
  it('works at once, mails a link with nothing sensitive in the subject, and the link confirms once', async () => {
    const member = await signUp();
    expect(await accountOf(member.tokens.access)).toMatchObject({
      email: member.email,
      email_confirmed: false,
      pending_email: null,
    });
    const mail = await smtp.waitForMessageTo(member.email, confirmSubject);
    expect(mail.subject).not.toContain(member.email);
    expect(mail.text).toContain('Reminders, notices and password reset links are sent only');

    const key = keyOf(mail);
    const res = await confirm(key);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: emailConfirmedMessage });
    expect(await accountOf(member.tokens.access)).toMatchObject({ email_confirmed: true });
    expect(await newestAuditRow(t, member.id)).toMatchObject({
      action: 'email_confirm',
      resourceType: 'account',
      actor: member.id,
      result: 'success',
    });

    const again = await confirm(key);
    expect(again.statusCode).toBe(400);
    expect(again.headers['content-type']).toContain('application/problem+json');
    expect(again.json()).toMatchObject({ detail: invalidConfirmationKeyMessage });
  });

  it('stores the key only as a hash', async () => {
    const member = await signUp();
    const key = await keyMailedTo(member.email);
    const rows = await t.db
      .select({ keyHash: emailConfirmations.keyHash })
      .from(emailConfirmations)
      .where(eq(emailConfirmations.userId, member.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.keyHash).not.toContain(key);
    expect(rows[0]?.keyHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a made-up key and an expired one with a problem, and changes nothing', async () => {
    const member = await signUp();
    const key = await keyMailedTo(member.email);
    const madeUp = await confirm(`${key.slice(0, -2)}xx`);
    expect(madeUp.statusCode).toBe(400);
    expect(madeUp.json()).toMatchObject({ errors: { key: [invalidConfirmationKeyMessage] } });

    const empty = await confirm('');
    expect(empty.statusCode).toBe(400);

    t.clock.advance(24 * 60 * 60 * 1000 + 1000);
    const expired = await confirm(key);
    expect(expired.statusCode).toBe(400);
    expect(await accountOf((await factory.login(member)).access)).toMatchObject({
      email_confirmed: false,
    });
  });

  it('sends the link again from the banner; only the newest link works', async () => {
    const member = await signUp();
    const first = await keyMailedTo(member.email);
    const resend = await t.request('POST', accountPaths.emailConfirmation, {
      token: member.tokens.access,
    });
    expect(resend.statusCode).toBe(204);
    const second = await keyMailedTo(member.email);
    expect(second).not.toBe(first);
    expect((await confirm(first)).statusCode).toBe(400);
    expect((await confirm(second)).statusCode).toBe(200);

    const confirmedResend = await t.request('POST', accountPaths.emailConfirmation, {
      token: member.tokens.access,
    });
    expect(confirmedResend.statusCode).toBe(400);
  });

  it('needs a sign-in to resend', async () => {
    const res = await t.request('POST', accountPaths.emailConfirmation);
    expect(res.statusCode).toBe(401);
  });

  it('a password reset link reaches an unconfirmed address, and using it confirms the address', async () => {
    const member = await signUp();
    await keyMailedTo(member.email);
    await t.request('POST', accountPaths.forgetPassword, { body: { email: member.email } });
    await t.services.passwordResets.drain();
    const reset = await smtp.waitForMessageTo(member.email, /^Reset your /);
    const resetKey = /update-password\?key=([\w%-]+)/.exec(reset.text ?? '')?.[1];
    expect(resetKey).toBeDefined();
    const res = await t.request('POST', accountPaths.updatePassword, {
      body: { key: decodeURIComponent(resetKey ?? ''), password: strongPassword() },
    });
    expect(res.statusCode).toBe(200);
    const [row] = await t.db
      .select({ confirmedAt: users.emailConfirmedAt })
      .from(users)
      .where(eq(users.id, member.id));
    expect(row?.confirmedAt).not.toBeNull();
  });
});

describe('changing the e-mail address', () => {
  const change = (token: string, email: unknown) =>
    t.request('PUT', accountPaths.email, { token, body: { email } });

  it('keeps the old address until the new one is confirmed, and tells the old one', async () => {
    const member = await factory.loggedInMember();
    const newEmail = uniqueEmail('moved');
    const res = await change(member.tokens.access, newEmail);
    expect(res.statusCode).toBe(200);
    expect(res.json<Account>()).toMatchObject({
      email: member.email,
      email_confirmed: true,
      pending_email: newEmail,
    });
    expect(await newestAuditRow(t, member.id)).toMatchObject({
      action: 'email_change_request',
      resourceType: 'account',
    });
    const told = await smtp.waitForMessageTo(member.email, /e-mail address is being changed$/);
    expect(told.text).toContain(newEmail);

    const key = await keyMailedTo(newEmail);
    expect((await confirm(key)).statusCode).toBe(200);
    expect(await accountOf(member.tokens.access)).toMatchObject({
      email: newEmail,
      email_confirmed: true,
      pending_email: null,
    });
    const changed = await smtp.waitForMessageTo(member.email, /e-mail address was changed$/);
    expect(changed.text).toContain(newEmail);
    // Sign-in takes the new address, and no longer the old one.
    await expect(
      factory.login({ email: newEmail, password: member.password }),
    ).resolves.toBeTruthy();
    await expect(factory.login(member)).rejects.toThrow();
  });

  it('refuses the same address, one another account holds, and a malformed one, changing nothing', async () => {
    const member = await factory.loggedInMember();
    const other = await factory.member();
    const same = await change(member.tokens.access, member.email.toUpperCase());
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({ detail: sameEmailMessage });
    const taken = await change(member.tokens.access, other.email);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ detail: emailTakenMessage });
    const malformed = await change(member.tokens.access, 'not-an-address');
    expect(malformed.statusCode).toBe(400);
    expect(await accountOf(member.tokens.access)).toMatchObject({
      email: member.email,
      pending_email: null,
    });
  });

  it('needs a recent sign-in', async () => {
    const member = await factory.loggedInMember();
    t.clock.advance(11 * 60 * 1000);
    const res = await change(member.tokens.access, uniqueEmail('late'));
    expect(res.statusCode).toBe(403);
    t.clock.advance(-11 * 60 * 1000);
  });

  it('a link to an address another account took meanwhile is refused with 409 and changes nothing', async () => {
    const member = await factory.loggedInMember();
    const wanted = uniqueEmail('race');
    expect((await change(member.tokens.access, wanted)).statusCode).toBe(200);
    const key = await keyMailedTo(wanted);
    await factory.member({ email: wanted });
    const res = await confirm(key);
    expect(res.statusCode).toBe(409);
    expect(await accountOf(member.tokens.access)).toMatchObject({ email: member.email });
  });
});
