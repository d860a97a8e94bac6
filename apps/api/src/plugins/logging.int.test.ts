import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountPaths, type TokenPair } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { strongPassword, uniqueEmail } from '#api-test/factories';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';

const lines: string[] = [];
let inbox: SmtpInbox;
let t: TestApp;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await buildTestApp({
    env: { SMTP_URL: inbox.url },
    logStream: { write: (line) => lines.push(line) },
  });
});
afterAll(async () => {
  await t.close();
  await inbox.close();
});

describe('request logs', () => {
  it('carry request ids and never a password, token or reset key', async () => {
    const email = uniqueEmail();
    const password = strongPassword();
    const newPassword = strongPassword();
    await t.request('POST', accountPaths.register, { body: { email, username: 'Log', password } });
    const login = await t.request('POST', accountPaths.login, {
      body: { login_type: 'native', email, password },
    });
    const tokens = login.json<TokenPair>();
    await t.request('GET', accountPaths.account, { token: tokens.access });
    const refreshed = await t.request('POST', accountPaths.refresh, {
      body: { refresh: tokens.refresh },
    });
    const rotated = refreshed.json<TokenPair>();
    await t.request('POST', accountPaths.forgetPassword, { body: { email } });
    const mail = await inbox.waitForMessageTo(email);
    const key = /key=([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1] ?? '';
    expect(key).not.toBe('');
    await t.request('GET', `/update-password?key=${key}`, { headers: { accept: 'text/html' } });
    await t.request('POST', accountPaths.updatePassword, { body: { password: newPassword, key } });
    await t.request('POST', accountPaths.logout, { body: { refresh: rotated.refresh } });
    // A failing request is logged too, with its error, still without the secrets.
    await t.request('POST', accountPaths.login, {
      body: { login_type: 'native', email, password: `${password}-wrong` },
    });

    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(10);
    for (const secret of [
      password,
      newPassword,
      tokens.access,
      tokens.refresh,
      rotated.access,
      rotated.refresh,
      key,
    ]) {
      expect(log).not.toContain(secret);
    }
    const entries = lines.map((line) => JSON.parse(line) as { reqId?: string; msg?: string });
    const completed = entries.filter((entry) => entry.msg === 'request completed');
    expect(completed.length).toBeGreaterThanOrEqual(9);
    expect(completed.every((entry) => typeof entry.reqId === 'string')).toBe(true);
    expect(log).toContain('/update-password?key=[Redacted]');
  });
});
