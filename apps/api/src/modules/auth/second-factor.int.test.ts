import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import {
  accountPaths,
  mfaTokenExpiredMessage,
  secondFactorPaths,
  wrongCodeMessage,
  type LoginResponse,
  type MfaChallenge,
  type RecoveryCodes,
  type SecondFactorStatus,
  type TokenPair,
  type TotpEnrolment,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, type TestMember } from '#api-test/factories';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { passkeys, totpCredentials } from '#api/db/schema';
import { eq } from 'drizzle-orm';
import { mfaTokenLifetimeMs } from './second-factor.service';
import { wrongPasswordMessage } from './sign-in';

let inbox: SmtpInbox;
let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await buildTestApp({ env: { SMTP_URL: inbox.url, COMPANY_NAME: 'Bright Smile' } });
  factory = factories(t);
});
afterAll(async () => {
  await t.close();
  await inbox.close();
});

/** What the member's authenticator app shows now (the app and the test share the clock). */
const codeNow = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: t.clock.now().getTime() });

/** A 6-digit code the authenticator shows for none of the steps the server accepts now. */
const wrongCodeNow = (secret: string) => {
  const totp = new TOTP({ secret: Secret.fromBase32(secret) });
  const now = t.clock.now().getTime();
  const valid = [-30_000, 0, 30_000].map((offset) => totp.generate({ timestamp: now + offset }));
  return ['000000', '111111', '222222', '333333'].find((code) => !valid.includes(code)) ?? '';
};

/** Each code is accepted once: the next one comes from the next 30-second step. */
const nextStep = () => {
  t.clock.advance(30 * 1000);
};

const passwordLogin = (member: Pick<TestMember, 'email' | 'password'>) =>
  t.request('POST', accountPaths.login, {
    body: { login_type: 'native', email: member.email, password: member.password },
  });
const secondStep = (mfaToken: string, code: string) =>
  t.request('POST', secondFactorPaths.loginWithCode, { body: { mfa_token: mfaToken, code } });
const status = async (access: string) =>
  (await t.request('GET', secondFactorPaths.status, { token: access })).json<SecondFactorStatus>();

async function challengeOf(member: TestMember): Promise<string> {
  const res = await passwordLogin(member);
  expect(res.statusCode).toBe(200);
  const answer = res.json<LoginResponse>();
  expect(answer).toEqual({ mfa_required: true, mfa_token: expect.any(String) as string });
  return (answer as MfaChallenge).mfa_token;
}

/** A signed-in member who turned an authenticator app on. */
async function enrolledMember() {
  const member = await factory.loggedInMember();
  const started = await t.request('POST', secondFactorPaths.totp, {
    token: member.tokens.access,
    body: { password: member.password },
  });
  expect(started.statusCode).toBe(201);
  const { secret } = started.json<TotpEnrolment>();
  const confirmed = await t.request('POST', secondFactorPaths.confirmTotp, {
    token: member.tokens.access,
    body: { code: codeNow(secret) },
  });
  expect(confirmed.statusCode).toBe(200);
  nextStep();
  return { ...member, secret, recoveryCodes: confirmed.json<RecoveryCodes>().recovery_codes };
}

describe('turning an authenticator app on', () => {
  it('starts with the password, turns on with a first right code, and shows ten recovery codes once', async () => {
    const member = await factory.loggedInMember({ username: 'Ann' });
    const access = member.tokens.access;
    const wrongPassword = await t.request('POST', secondFactorPaths.totp, {
      token: access,
      body: { password: 'not-the-password' },
    });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json()).toMatchObject({ errors: { password: [wrongPasswordMessage] } });

    const started = await t.request('POST', secondFactorPaths.totp, {
      token: access,
      body: { password: member.password },
    });
    expect(started.statusCode).toBe(201);
    const { secret, otpauth_uri } = started.json<TotpEnrolment>();
    const uri = new URL(otpauth_uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('issuer')).toBe('Bright Smile');
    // Not on before its first code: a login still answers tokens.
    expect(await status(access)).toEqual({ totp_enabled: false, recovery_codes_left: 0 });
    expect((await passwordLogin(member)).json()).toHaveProperty('access');

    const [stored] = await t.db
      .select()
      .from(totpCredentials)
      .where(eq(totpCredentials.userId, member.id));
    expect(stored?.secretCiphertext).not.toContain(secret);

    const wrong = await t.request('POST', secondFactorPaths.confirmTotp, {
      token: access,
      body: { code: wrongCodeNow(secret) },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ detail: wrongCodeMessage });
    expect(await status(access)).toMatchObject({ totp_enabled: false });

    const confirmed = await t.request('POST', secondFactorPaths.confirmTotp, {
      token: access,
      body: { code: codeNow(secret) },
    });
    expect(confirmed.statusCode).toBe(200);
    const codes = confirmed.json<RecoveryCodes>().recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(await status(access)).toEqual({ totp_enabled: true, recovery_codes_left: 10 });
    const mail = await inbox.waitForMessageTo(member.email);
    expect(mail.subject).toBe('Two-step verification is on for your Bright Smile account');
    expect(mail.text).toContain('Hello Ann,');

    // On is on: neither a new enrolment nor a second confirmation replaces it.
    const again = await t.request('POST', secondFactorPaths.totp, {
      token: access,
      body: { password: member.password },
    });
    expect(again.statusCode).toBe(409);
  });

  it('refuses a missing or malformed body and changes nothing', async () => {
    const member = await factory.loggedInMember();
    for (const body of [{}, { code: '' }, { code: 123456 }]) {
      const res = await t.request('POST', secondFactorPaths.confirmTotp, {
        token: member.tokens.access,
        body,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ errors: Record<string, string[]> }>().errors).toHaveProperty('code');
    }
    expect(await status(member.tokens.access)).toMatchObject({ totp_enabled: false });
  });

  it('answers 401 without a bearer token', async () => {
    expect((await t.request('GET', secondFactorPaths.status)).statusCode).toBe(401);
    const res = await t.request('POST', secondFactorPaths.totp, { body: { password: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('logging in with a second factor', () => {
  it('answers a challenge instead of tokens, then tokens for a right code, once', async () => {
    const member = await enrolledMember();
    const res = await passwordLogin(member);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json<object>()).sort()).toEqual(['mfa_required', 'mfa_token']);
    const { mfa_token } = res.json<MfaChallenge>();

    const signedIn = await secondStep(mfa_token, codeNow(member.secret));
    expect(signedIn.statusCode).toBe(200);
    const { access } = signedIn.json<TokenPair>();
    expect((await t.request('GET', accountPaths.account, { token: access })).statusCode).toBe(200);

    nextStep();
    const reused = await secondStep(mfa_token, codeNow(member.secret));
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toMatchObject({ detail: mfaTokenExpiredMessage });
  });

  it('refuses a wrong code with 400, and the token still works for the right one', async () => {
    const member = await enrolledMember();
    const other = await enrolledMember();
    const token = await challengeOf(member);
    // Another member's valid code is just a wrong code here.
    const wrong = await secondStep(token, codeNow(other.secret));
    expect(wrong.statusCode).toBe(400);
    expect(wrong.headers['content-type']).toContain('application/problem+json');
    expect(wrong.json()).toMatchObject({ status: 400, errors: { code: [wrongCodeMessage] } });
    expect((await secondStep(token, codeNow(member.secret))).statusCode).toBe(200);
  });

  it('refuses a code that was already used once', async () => {
    const member = await enrolledMember();
    const code = codeNow(member.secret);
    expect((await secondStep(await challengeOf(member), code)).statusCode).toBe(200);
    expect((await secondStep(await challengeOf(member), code)).statusCode).toBe(400);
  });

  it('lets the mfa_token expire after 5 minutes', async () => {
    const member = await enrolledMember();
    const token = await challengeOf(member);
    t.clock.advance(mfaTokenLifetimeMs);
    const res = await secondStep(token, codeNow(member.secret));
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ detail: mfaTokenExpiredMessage });
  });

  it('locks the second step after 5 wrong codes, like wrong passwords, the right code included', async () => {
    const member = await enrolledMember();
    const token = await challengeOf(member);
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await secondStep(token, wrongCodeNow(member.secret))).statusCode).toBe(400);
    }
    const locked = await secondStep(token, codeNow(member.secret));
    expect(locked.statusCode).toBe(429);
    expect(locked.headers['retry-after']).toBe('60');
    // A new challenge does not start over: the lock is the member's.
    expect((await secondStep(await challengeOf(member), codeNow(member.secret))).statusCode).toBe(
      429,
    );
    t.clock.advance(60 * 1000);
    expect((await secondStep(token, codeNow(member.secret))).statusCode).toBe(200);
  });

  it('checks at most 5 of 100 concurrent wrong codes for one mfa_token, from 100 addresses', async () => {
    // A longer timeout: a hundred requests through PGlite's one connection take a while.
    const member = await enrolledMember();
    const token = await challengeOf(member);
    const fromAddress = (code: string, index: number) =>
      t.app.inject({
        method: 'POST',
        url: secondFactorPaths.loginWithCode,
        payload: { mfa_token: token, code },
        remoteAddress: `198.51.100.${index}`,
      });
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, index) => fromAddress(wrongCodeNow(member.secret), index)),
    );
    const statuses = answers.map((res) => res.statusCode);
    expect(statuses.filter((status) => status === 400)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(95);
    // Counted before checked: the right code after the lock is refused too.
    expect((await fromAddress(codeNow(member.secret), 100)).statusCode).toBe(429);
  }, 60_000);

  it('accepts each recovery code once, and e-mails the member when one is used', async () => {
    const member = await enrolledMember();
    const [code] = member.recoveryCodes;
    // As typed from paper: upper case, spaces instead of the dash.
    const typed = (code ?? '').toUpperCase().replace('-', ' ');
    const first = await secondStep(await challengeOf(member), typed);
    expect(first.statusCode).toBe(200);
    const mail = await inbox.waitForMessageTo(member.email);
    expect(mail.subject).toBe('A recovery code of your Bright Smile account was used');
    expect(mail.text).toContain('9 of your 10 codes are left');
    expect(await status(first.json<TokenPair>().access)).toMatchObject({ recovery_codes_left: 9 });
    const reused = await secondStep(await challengeOf(member), code ?? '');
    expect(reused.statusCode).toBe(400);
  });

  it('counts a passkey as a second factor', async () => {
    const member = await factory.member();
    await t.db.insert(passkeys).values({
      userId: member.id,
      credentialId: `credential-${member.id}`,
      publicKey: 'public-key',
      counter: 0,
      transports: [],
      name: 'Laptop',
      createdAt: t.clock.now(),
    });
    await challengeOf(member);
  });

  it('checks deactivation before the second step', async () => {
    const member = await enrolledMember();
    await t.services.accounts.deactivate(member.id);
    expect((await passwordLogin(member)).statusCode).toBe(403);
  });
});

describe('the code as a step-up, and turning the app off', () => {
  /** A member whose sign-in is more than 10 minutes old. */
  async function signedInLongAgo() {
    const member = await enrolledMember();
    const token = await challengeOf(member);
    const tokens = (await secondStep(token, codeNow(member.secret))).json<TokenPair>();
    // Kept in use (idle after 30 minutes), but the sign-in is 11 minutes old.
    for (let minute = 0; minute < 11; minute++) {
      t.clock.advance(60 * 1000);
      await t.request('GET', accountPaths.account, { token: tokens.access });
    }
    return { ...member, access: tokens.access };
  }
  const removeTotp = (access: string, body: unknown) =>
    t.request('DELETE', secondFactorPaths.totp, { token: access, body });
  const reauthenticate = (access: string, body: unknown) =>
    t.request('POST', accountPaths.reauthenticate, { token: access, body });

  it('re-authenticates with a code; a wrong one is refused', async () => {
    const member = await signedInLongAgo();
    const body = { password: member.password, code: codeNow(member.secret) };
    expect((await removeTotp(member.access, body)).statusCode).toBe(403);
    const wrong = await reauthenticate(member.access, { code: wrongCodeNow(member.secret) });
    expect(wrong.statusCode).toBe(400);
    expect((await reauthenticate(member.access, { code: codeNow(member.secret) })).statusCode).toBe(
      204,
    );
    nextStep();
    const removed = await removeTotp(member.access, {
      password: member.password,
      code: codeNow(member.secret),
    });
    expect(removed.statusCode).toBe(204);
  });

  it('turns off with the password and a code, then logins answer tokens again', async () => {
    const member = await enrolledMember();
    const access = member.tokens.access;
    const wrongPassword = await removeTotp(access, {
      password: 'not-the-password',
      code: codeNow(member.secret),
    });
    expect(wrongPassword.statusCode).toBe(400);
    const wrongCode = await removeTotp(access, {
      password: member.password,
      code: wrongCodeNow(member.secret),
    });
    expect(wrongCode.statusCode).toBe(400);
    expect((await removeTotp(access, { password: member.password })).statusCode).toBe(400);
    expect(await status(access)).toMatchObject({ totp_enabled: true });

    const removed = await removeTotp(access, {
      password: member.password,
      code: codeNow(member.secret),
    });
    expect(removed.statusCode).toBe(204);
    expect(await status(access)).toEqual({ totp_enabled: false, recovery_codes_left: 0 });
    const mail = await inbox.waitForMessageTo(member.email);
    expect(mail.subject).toBe('Two-step verification is off for your Bright Smile account');
    expect((await passwordLogin(member)).json()).toHaveProperty('access');
  });
});
