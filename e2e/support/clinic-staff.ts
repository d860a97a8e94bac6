import { open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import {
  accountPaths,
  clinicStaffPaths,
  mfaChallenge,
  secondFactorPaths,
  tokenPair,
  totpEnrolment,
} from '@dental/contracts';
import { e2eClinicAdminEmail } from '../../playwright.config';
import { e2eDataPath } from './data-dir';
import { expect, submitLogin } from './fixtures';
import { mailTo } from './outbox';

// The shared e2e server's first clinic administrator (invited from CLINIC_ADMIN_EMAIL when the
// server starts), for journeys in which the practice answers in the clinic console, and staff
// they invite.

export interface StaffAccount {
  email: string;
  password: string;
  secret: string;
  /** The access token of the sign-in that turned the second factor on (15 minutes). */
  access: string;
}

/** A code of the authenticator holding `secret`, `at` a moment (the server's own library). */
export const codeAt = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: at });

/** The token of the latest staff invitation e-mailed to `email`. */
export async function invitationToken(email: string): Promise<string> {
  let token: string | undefined;
  await expect
    .poll(
      async () => {
        const bodies = (await mailTo(email)).map((mail) => mail.text ?? '');
        token = bodies
          .map((body) => /invitation\?token=([^\s"'<>&]+)/.exec(body)?.[1])
          .filter(Boolean)
          .at(-1);
        return token;
      },
      { message: `the staff invitation to ${email}`, timeout: 20_000 },
    )
    .toBeDefined();
  return token ?? '';
}

/** Accepts the invitation e-mailed to `email` and turns on the second factor that every staff
 *  route asks for (through the API: the console's walk-through is clinic-console.spec.ts's). */
export async function joinAsStaff(
  request: APIRequestContext,
  email: string,
): Promise<StaffAccount> {
  const token = await invitationToken(email);
  const password = `Molar-${Math.random().toString(36).slice(2)}-Staff!`;
  const accepted = await request.post(clinicStaffPaths.acceptInvitation, {
    data: { token, password },
  });
  expect(accepted.status(), await accepted.text()).toBe(201);
  const login = await request.post(accountPaths.login, {
    data: { login_type: 'native', email, password },
  });
  const { access } = tokenPair.parse(await login.json());
  const headers = { authorization: `Bearer ${access}` };
  const started = await request.post(secondFactorPaths.totp, { headers, data: { password } });
  const { secret } = totpEnrolment.parse(await started.json());
  const code = codeAt(secret, Date.now());
  const confirmed = await request.post(secondFactorPaths.confirmTotp, { headers, data: { code } });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  return { email, password, secret, access };
}

/** The invited administrator's account. The invitation can be accepted once per data folder,
 *  and journeys run in several workers: the first to ask accepts it and leaves the account in the
 *  data folder, the others read it there. */
export async function staffAccount(request: APIRequestContext): Promise<StaffAccount> {
  const memo = e2eDataPath('e2e-first-admin.json');
  try {
    const file = await open(memo, 'wx');
    try {
      const admin = await joinAsStaff(request, e2eClinicAdminEmail);
      await file.writeFile(JSON.stringify(admin));
      return admin;
    } finally {
      await file.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  let admin: StaffAccount | undefined;
  await expect
    .poll(
      async () => {
        const text = await readFile(memo, 'utf8');
        admin = text === '' ? undefined : (JSON.parse(text) as StaffAccount);
        return admin;
      },
      { message: 'the first administrator’s account', timeout: 30_000 },
    )
    .toBeDefined();
  if (admin === undefined) throw new Error('no first administrator');
  return admin;
}

/** A staff access token (and the staff idle time) lasts 15 minutes; the journeys take longer. */
const adminTokenReuseMs = 10 * 60_000;
const totpStepMs = 30_000;

/** Runs `work` while this worker holds the lock file `name` in the data folder (every worker
 *  reads and writes the same files there). */
async function whileLocked<T>(name: string, work: () => Promise<T>): Promise<T> {
  const lock = e2eDataPath(name);
  await expect
    .poll(
      async () => {
        try {
          await (await open(lock, 'wx')).close();
          return true;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
          return false;
        }
      },
      { message: `the lock ${name}`, timeout: 120_000 },
    )
    .toBe(true);
  try {
    return await work();
  } finally {
    await rm(lock, { force: true });
  }
}

/** A password and authenticator sign-in of `staff`: a code that was used once is refused, so
 *  the next 30-second step is tried when the current one is spent, after waiting if need be. */
async function signInWithCode(request: APIRequestContext, staff: StaffAccount): Promise<string> {
  for (const step of [0, 1, 2, 3]) {
    if (step === 2) await new Promise((resolve) => setTimeout(resolve, totpStepMs));
    const first = await request.post(accountPaths.login, {
      data: { login_type: 'native', email: staff.email, password: staff.password },
    });
    const { mfa_token } = mfaChallenge.parse(await first.json());
    const second = await request.post(secondFactorPaths.loginWithCode, {
      data: { mfa_token, code: codeAt(staff.secret, Date.now() + (step % 2) * totpStepMs) },
    });
    if (second.ok()) return tokenPair.parse(await second.json()).access;
  }
  throw new Error(`${staff.email} could not sign in with a code`);
}

/** The first administrator with an access token under 10 minutes old: one worker at a time signs
 *  in again when the last token is older, and leaves the new one in the data folder. */
export async function staffAdmin(request: APIRequestContext): Promise<StaffAccount> {
  const admin = await staffAccount(request);
  return whileLocked('e2e-first-admin-token.lock', async () => {
    const tokenFile = e2eDataPath('e2e-first-admin-token.json');
    const saved = await readFile(tokenFile, 'utf8').then(
      (text) => JSON.parse(text) as { access: string; at: number },
      // None yet: the token of the sign-in that turned the second factor on, made with the memo.
      async () => ({
        access: admin.access,
        at: (await stat(e2eDataPath('e2e-first-admin.json'))).mtimeMs,
      }),
    );
    if (Date.now() - saved.at < adminTokenReuseMs) return { ...admin, access: saved.access };
    const access = await signInWithCode(request, admin);
    await writeFile(tokenFile, JSON.stringify({ access, at: Date.now() }));
    return { ...admin, access };
  });
}

/** The clinic console in a browser context of its own, signed in as `staff` with the password
 *  and a code; ends on the console's first screen. */
export async function openConsole(
  browser: Browser,
  baseURL: string | undefined,
  staff: StaffAccount,
): Promise<Page> {
  const context = await browser.newContext({ baseURL, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto('/clinic/sign-in');
  await submitLogin(page, staff);
  // The code of the next 30 seconds: the one that turned the authenticator on is used up.
  await page.getByRole('textbox', { name: 'Code' }).fill(codeAt(staff.secret, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('heading', { name: 'Today and upcoming' })).toBeVisible();
  return page;
}
