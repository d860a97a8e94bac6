import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountPaths,
  changePasswordSuccess,
  passwordMismatchMessage,
  sessionPaths,
  wrongCurrentPasswordMessage,
  type DeviceSession,
  type TokenPair,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, strongPassword, type TestMember } from '#api-test/factories';
import { isSignUpConfirmation, startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { sessionExpiredMessage } from '#api/plugins/auth';
import { commonPasswordMessage } from './password.service';

const chromeOnWindows =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const laterChromeOnWindows = chromeOnWindows.replace('131.0.0.0', '132.0.0.0');
const firefoxOnLinux = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

let t: TestApp;
let factory: ReturnType<typeof factories>;
let inbox: SmtpInbox;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await buildTestApp({ env: { SMTP_URL: inbox.url } });
  factory = factories(t);
});
afterAll(async () => {
  await t.close();
  await inbox.close();
});

/** A sign-in through the login call, from the browser `userAgent` names. */
async function signIn(member: TestMember, userAgent = chromeOnWindows): Promise<TokenPair> {
  const res = await t.request('POST', accountPaths.login, {
    body: { login_type: 'native', email: member.email, password: member.password },
    headers: { 'user-agent': userAgent },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TokenPair>();
}

const listSessions = (access: string) => t.request('GET', sessionPaths.sessions, { token: access });
const endSession = (access: string, id: string) =>
  t.request('DELETE', sessionPaths.session(id), { token: access });
const getAccount = (access: string) => t.request('GET', accountPaths.account, { token: access });
const refresh = (token: string) =>
  t.request('POST', accountPaths.refresh, { body: { refresh: token } });
const changePassword = (access: string, body: Record<string, string>) =>
  t.request('POST', sessionPaths.changePassword, { token: access, body });

const mailsTo = (member: TestMember) =>
  inbox.messages.filter(
    (mail) =>
      !isSignUpConfirmation(mail) &&
      [mail.to ?? []].flat().some((to) => to.value.some((entry) => entry.address === member.email)),
  );

function expectEnded(res: Awaited<ReturnType<typeof getAccount>>) {
  expect(res.statusCode).toBe(401);
  expect(res.json()).toMatchObject({ detail: sessionExpiredMessage });
}

describe('signed-in devices', () => {
  it('lists only the caller’s live sessions, with the device and which one is current', async () => {
    const member = await factory.member();
    const laptop = await signIn(member);
    const phone = await signIn(member, firefoxOnLinux);
    const ended = await signIn(member);
    await t.request('POST', accountPaths.logout, { body: { refresh: ended.refresh } });
    await signIn(await factory.member());

    const res = await listSessions(laptop.access);
    expect(res.statusCode).toBe(200);
    const sessions = res.json<DeviceSession[]>();
    expect(sessions).toHaveLength(2);
    expect(sessions).toEqual(
      expect.arrayContaining([
        {
          id: expect.any(String) as string,
          created_at: t.clock.now().toISOString(),
          last_used_at: t.clock.now().toISOString(),
          user_agent: chromeOnWindows,
          ip: '127.0.0.1',
          current: true,
          push_subscription_id: null,
          signed_in: true,
        },
        expect.objectContaining({ user_agent: firefoxOnLinux, current: false }),
      ]),
    );
    const fromPhone = (await listSessions(phone.access)).json<DeviceSession[]>();
    expect(fromPhone.find((session) => session.current)?.user_agent).toBe(firefoxOnLinux);
    expect((await t.request('GET', sessionPaths.sessions)).statusCode).toBe(401);
  });

  it('ends another device at once: its access and refresh tokens are refused', async () => {
    const member = await factory.member();
    const laptop = await signIn(member);
    const phone = await signIn(member, firefoxOnLinux);
    const phoneId = (await listSessions(laptop.access))
      .json<DeviceSession[]>()
      .find((session) => !session.current)?.id;

    expect((await endSession(laptop.access, phoneId ?? '')).statusCode).toBe(204);
    expectEnded(await getAccount(phone.access));
    expect((await refresh(phone.refresh)).statusCode).toBe(401);
    expect((await getAccount(laptop.access)).statusCode).toBe(200);
    expect((await listSessions(laptop.access)).json<DeviceSession[]>()).toHaveLength(1);
    // Ended already: nothing left to end.
    expect((await endSession(laptop.access, phoneId ?? '')).statusCode).toBe(404);
  });

  it('answers 404 for another member’s session and leaves it running', async () => {
    const member = await factory.member();
    const mine = await signIn(member);
    const other = await signIn(await factory.member());
    const otherId = (await listSessions(other.access)).json<DeviceSession[]>()[0]?.id ?? '';

    const res = await endSession(mine.access, otherId);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ status: 404 });
    expect((await getAccount(other.access)).statusCode).toBe(200);
    expect((await endSession(mine.access, 'not-an-id')).statusCode).toBe(400);
  });

  it('signs out everywhere else and keeps the current session', async () => {
    const member = await factory.member();
    const current = await signIn(member);
    const others = [await signIn(member, firefoxOnLinux), await signIn(member)];

    const res = await t.request('DELETE', sessionPaths.sessions, { token: current.access });
    expect(res.statusCode).toBe(204);
    for (const other of others) {
      expectEnded(await getAccount(other.access));
      expect((await refresh(other.refresh)).statusCode).toBe(401);
    }
    expect((await refresh(current.refresh)).statusCode).toBe(200);
    const left = (await listSessions(current.access)).json<DeviceSession[]>();
    expect(left).toMatchObject([{ current: true }]);
  });
});

describe('change password', () => {
  it('refuses a wrong current password, a weak or mismatched new one, and changes nothing', async () => {
    const member = await factory.member();
    const current = await signIn(member);
    const other = await signIn(member);
    const newPassword = strongPassword();

    const wrong = await changePassword(current.access, {
      current_password: `${member.password}x`,
      password: newPassword,
      confirm_password: newPassword,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({
      type: 'about:blank',
      status: 400,
      detail: wrongCurrentPasswordMessage,
      errors: { current_password: [wrongCurrentPasswordMessage] },
    });
    const weak = await changePassword(current.access, {
      current_password: member.password,
      password: 'password123',
      confirm_password: 'password123',
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ errors: { password: [commonPasswordMessage] } });
    const mismatch = await changePassword(current.access, {
      current_password: member.password,
      password: newPassword,
      confirm_password: `${newPassword}x`,
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json()).toMatchObject({
      errors: { confirm_password: [passwordMismatchMessage] },
    });

    expect((await getAccount(other.access)).statusCode).toBe(200);
    await signIn(member);
    expect(mailsTo(member)).toEqual([]);
  });

  it('sets the new password, ends the other sessions, keeps this one and e-mails the member', async () => {
    const member = await factory.member();
    const current = await signIn(member);
    const other = await signIn(member, firefoxOnLinux);
    const newPassword = strongPassword();

    const res = await changePassword(current.access, {
      current_password: member.password,
      password: newPassword,
      confirm_password: newPassword,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: changePasswordSuccess });
    expectEnded(await getAccount(other.access));
    expect((await refresh(other.refresh)).statusCode).toBe(401);
    expect((await getAccount(current.access)).statusCode).toBe(200);

    const mail = await inbox.waitForMessageTo(member.email);
    expect(mail.subject).toMatch(/password was changed$/);
    expect(mail.text).toContain('Your other devices have been signed out.');
    const oldLogin = await t.request('POST', accountPaths.login, {
      body: { login_type: 'native', email: member.email, password: member.password },
    });
    expect(oldLogin.statusCode).toBe(401);
    await signIn({ ...member, password: newPassword });
  });
});

describe('sign-in from a new device', () => {
  it('is e-mailed once per new browser and system, never for the first sign-in', async () => {
    const member = await factory.member();
    await signIn(member);
    await signIn(member, laterChromeOnWindows);
    expect(mailsTo(member)).toEqual([]);

    await signIn(member, firefoxOnLinux);
    const mail = await inbox.waitForMessageTo(member.email);
    expect(mail.subject).toMatch(/^New sign-in to your .+ account$/);
    expect(mail.text).toContain('from Firefox on Linux (address 127.0.0.1)');

    await signIn(member, firefoxOnLinux);
    await signIn(member);
    expect(mailsTo(member)).toHaveLength(1);
  });
});
