import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountPaths,
  forgetPasswordSuccess,
  updatePasswordSuccess,
  type TokenPair,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, strongPassword, uniqueEmail } from '#api-test/factories';
import { isSignUpConfirmation, startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { commonPasswordMessage } from './password.service';
import { invalidResetKeyMessage, resetKeyLifetimeMs } from './password-reset.service';

let inbox: SmtpInbox;
let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await buildTestApp({
    env: {
      SMTP_URL: inbox.url,
      MAIL_FROM: 'Dental Companion <no-reply@clinic.example>',
      PUBLIC_URL: 'https://dental.example',
      COMPANY_NAME: 'Bright Smile',
    },
  });
  factory = factories(t);
});
afterAll(async () => {
  await t.close();
  await inbox.close();
});

const forget = (email: string) =>
  t.request('POST', accountPaths.forgetPassword, { body: { email } });
const update = (body: Record<string, unknown>) =>
  t.request('POST', accountPaths.updatePassword, { body });
const check = (key: string) => t.request('POST', accountPaths.checkResetKey, { body: { key } });

/** Asks for a reset link and follows it out of the e-mail that arrives over SMTP. */
async function resetKeyFor(email: string): Promise<string> {
  const before = inbox.messages.length;
  expect((await forget(email)).statusCode).toBe(200);
  await expect.poll(() => inbox.messages.length).toBeGreaterThan(before);
  const mail = await inbox.waitForMessageTo(email);
  const link = /https:\/\/dental\.example\/update-password\?key=([A-Za-z0-9_-]+)/.exec(
    mail.text ?? '',
  );
  expect(link).not.toBeNull();
  return link?.[1] ?? '';
}

describe('POST /api/account/forget-password/', () => {
  it('e-mails a reset link through SMTP to a known member', async () => {
    const member = await factory.member({ username: 'Ann' });
    const res = await forget(member.email);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: forgetPasswordSuccess });

    const mail = await inbox.waitForMessageTo(member.email);
    expect(mail.subject).toBe('Reset your Bright Smile password');
    expect(mail.from?.text).toContain('no-reply@clinic.example');
    expect(mail.text).toContain('Hello Ann,');
    const key = /update-password\?key=([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1] ?? '';
    // At least 128 random bits: 43 base64url characters carry 256.
    expect(key.length).toBeGreaterThanOrEqual(22);
    expect(mail.html).toContain(`https://dental.example/update-password?key=${key}`);
  });

  it('answers known, unknown and deactivated addresses identically and mails only the known one', async () => {
    const known = await factory.member();
    const deactivated = await factory.loggedInMember();
    await t.request('DELETE', accountPaths.account, { token: deactivated.tokens.access });
    const unknown = uniqueEmail('stranger');

    const answers = [
      await forget(known.email),
      await forget(unknown),
      await forget(deactivated.email),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(answers[0]?.headers['content-type']);
      expect(res.body).toBe(answers[0]?.body);
    }
    await t.services.passwordResets.drain();
    await inbox.waitForMessageTo(known.email);
    const addressees = inbox.messages
      .filter((mail) => !isSignUpConfirmation(mail))
      .flatMap((mail) => [mail.to ?? []].flat().map((to) => to.text));
    expect(addressees).not.toContain(unknown);
    expect(addressees).not.toContain(deactivated.email);
  });

  it.each([[''], ['not-an-address']])('refuses the e-mail %j', async (email) => {
    const res = await forget(email);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errors: { email: [expect.any(String)] } });
  });
});

describe('POST /api/account/update-password/', () => {
  it('sets the new password from the e-mailed link and ends every session', async () => {
    const member = await factory.loggedInMember();
    const key = await resetKeyFor(member.email);
    const newPassword = strongPassword();

    const res = await update({ password: newPassword, key });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: updatePasswordSuccess });

    const refreshed = await t.request('POST', accountPaths.refresh, {
      body: { refresh: member.tokens.refresh },
    });
    expect(refreshed.statusCode).toBe(401);
    // The access token of the session is refused at once too, not after its 15 minutes.
    const account = await t.request('GET', accountPaths.account, { token: member.tokens.access });
    expect(account.statusCode).toBe(401);
    const oldLogin = await t.request('POST', accountPaths.login, {
      body: { login_type: 'native', email: member.email, password: member.password },
    });
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await t.request('POST', accountPaths.login, {
      body: { login_type: 'native', email: member.email, password: newPassword },
    });
    expect(newLogin.statusCode).toBe(200);
    expect(newLogin.json<TokenPair>().access).toEqual(expect.any(String));
  });

  it('refuses a key that was already used', async () => {
    const member = await factory.member();
    const key = await resetKeyFor(member.email);
    expect((await update({ password: strongPassword(), key })).statusCode).toBe(200);
    const again = await update({ password: strongPassword(), key });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ detail: invalidResetKeyMessage });
  });

  it('retires older links once the password has been changed with a newer one', async () => {
    const member = await factory.member();
    const older = await resetKeyFor(member.email);
    const newer = await resetKeyFor(member.email);
    expect(older).not.toBe(newer);
    expect((await update({ password: strongPassword(), key: newer })).statusCode).toBe(200);
    expect((await update({ password: strongPassword(), key: older })).statusCode).toBe(400);
  });

  it('refuses a key after its hour is over', async () => {
    const member = await factory.member();
    const key = await resetKeyFor(member.email);
    t.clock.advance(resetKeyLifetimeMs);
    try {
      const res = await update({ password: strongPassword(), key });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ detail: invalidResetKeyMessage });
    } finally {
      t.clock.advance(-resetKeyLifetimeMs);
    }
  });

  it('accepts a key just before its hour is over', async () => {
    const member = await factory.member();
    const key = await resetKeyFor(member.email);
    t.clock.advance(resetKeyLifetimeMs - 1000);
    try {
      expect((await update({ password: strongPassword(), key })).statusCode).toBe(200);
    } finally {
      t.clock.advance(-(resetKeyLifetimeMs - 1000));
    }
  });

  it('refuses a made-up key', async () => {
    const res = await update({ password: strongPassword(), key: 'C'.repeat(43) });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      status: 400,
      detail: invalidResetKeyMessage,
      errors: { key: [invalidResetKeyMessage] },
    });
  });

  it('applies the sign-up password rules and leaves the key usable', async () => {
    const member = await factory.member();
    const key = await resetKeyFor(member.email);
    const common = await update({ password: 'password123', key });
    expect(common.statusCode).toBe(400);
    expect(common.json()).toMatchObject({ errors: { password: [commonPasswordMessage] } });
    const short = await update({ password: 'short', key });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      errors: { password: ['Password must be at least 8 characters.'] },
    });
    expect((await update({ password: strongPassword(), key })).statusCode).toBe(200);
  });

  it.each([
    [{ password: 'Molar-abcdef123' }, 'key'],
    [{ key: 'abc' }, 'password'],
  ])('refuses %j with a field error on %s', async (body, field) => {
    const res = await update(body);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toHaveProperty(field);
  });
});

describe('POST /api/account/update-password/check/', () => {
  it('answers 204 for a link that can still set a password, and uses nothing up', async () => {
    const member = await factory.member();
    const key = await resetKeyFor(member.email);
    expect((await check(key)).statusCode).toBe(204);
    expect((await check(key)).statusCode).toBe(204);
    expect((await update({ password: strongPassword(), key })).statusCode).toBe(200);
  });

  it('answers a used, an expired and a made-up link alike, naming nothing of the account', async () => {
    const used = await factory.member();
    const usedKey = await resetKeyFor(used.email);
    expect((await update({ password: strongPassword(), key: usedKey })).statusCode).toBe(200);
    const expired = await factory.member();
    const expiredKey = await resetKeyFor(expired.email);
    t.clock.advance(resetKeyLifetimeMs + 1000);
    try {
      const answers = [await check(usedKey), await check(expiredKey), await check('made-up-key')];
      for (const res of answers) {
        expect(res.statusCode).toBe(400);
        expect(res.headers['content-type']).toContain('application/problem+json');
        expect(res.body).toBe(answers[0]?.body);
      }
      expect(answers[0]?.json()).toMatchObject({
        detail: invalidResetKeyMessage,
        errors: { key: [invalidResetKeyMessage] },
      });
      expect(answers[0]?.body).not.toContain(used.email);
    } finally {
      t.clock.advance(-(resetKeyLifetimeMs + 1000));
    }
  });

  it('refuses a link of an account deleted since, like a used one', async () => {
    const member = await factory.loggedInMember();
    const key = await resetKeyFor(member.email);
    await t.request('DELETE', accountPaths.account, { token: member.tokens.access });
    expect((await check(key)).json()).toMatchObject({ detail: invalidResetKeyMessage });
  });
});

describe('the e-mail after a reset', () => {
  it('tells the member the password was changed, without the password or the link', async () => {
    const member = await factory.member({ username: 'Bea' });
    const key = await resetKeyFor(member.email);
    const newPassword = strongPassword();
    const before = inbox.messages.length;
    expect((await update({ password: newPassword, key })).statusCode).toBe(200);

    await expect.poll(() => inbox.messages.length).toBeGreaterThan(before);
    const mail = inbox.messages
      .slice(before)
      .find((message) => [message.to ?? []].flat().some((to) => to.text === member.email));
    expect(mail?.subject).toBe('Your Bright Smile password was changed');
    expect(mail?.text).toContain('Hello Bea,');
    expect(mail?.text).toContain('was changed with a password reset link');
    expect(mail?.text).toContain('Every device signed in to your account has been signed out.');
    expect(mail?.text).toContain('https://dental.example/forget-password');
    for (const secret of [newPassword, key]) {
      expect(mail?.text).not.toContain(secret);
      expect(mail?.html).not.toContain(secret);
    }
  });

  it('is not sent when the link is refused', async () => {
    const member = await factory.member();
    const key = await resetKeyFor(member.email);
    expect((await update({ password: strongPassword(), key })).statusCode).toBe(200);
    await t.services.passwordResets.drain();
    const sent = () =>
      inbox.messages.filter(
        (message) =>
          message.subject === 'Your Bright Smile password was changed' &&
          [message.to ?? []].flat().some((to) => to.text === member.email),
      ).length;
    await expect.poll(sent).toBe(1);
    expect((await update({ password: strongPassword(), key })).statusCode).toBe(400);
    expect(sent()).toBe(1);
  });
});
