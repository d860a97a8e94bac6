import { open, readFile } from 'node:fs/promises';
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import {
  accountPaths,
  clinicStaffPaths,
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
