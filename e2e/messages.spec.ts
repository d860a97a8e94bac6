import type { APIRequestContext } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import {
  accountPaths,
  clinicMessagePaths,
  clinicStaffPaths,
  secondFactorPaths,
  tokenPair,
  totpEnrolment,
} from '@dental/contracts';
import { e2eClinicAdminEmail } from '../playwright.config';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';
import { mailTo } from './support/outbox';
import { storeXray } from './support/stored-photos';

// Messages with the practice (docs/product/messages.md): the member writes with an X-ray
// attached; the practice's first administrator (invited from CLINIC_ADMIN_EMAIL when the server
// starts) answers through the API, the console's screens being another journey's; the member sees
// the answer arrive without reloading. Each screen checked at 1280 and 360 px.

/** The invited administrator's access token, after accepting and turning on the authenticator
 *  that every staff route asks for. */
async function staffAccess(request: APIRequestContext): Promise<string> {
  let token: string | undefined;
  await expect
    .poll(
      async () => {
        const bodies = (await mailTo(e2eClinicAdminEmail)).map((mail) => mail.text ?? '');
        token = bodies
          .map((body) => /invitation\?token=([^\s"'<>&]+)/.exec(body)?.[1])
          .find(Boolean);
        return token;
      },
      { message: 'the first administrator’s invitation', timeout: 20_000 },
    )
    .toBeDefined();
  const password = `Molar-${Math.random().toString(36).slice(2)}-Staff!`;
  const accepted = await request.post(clinicStaffPaths.acceptInvitation, {
    data: { token, password },
  });
  expect(accepted.status(), await accepted.text()).toBe(201);
  const login = await request.post(accountPaths.login, {
    data: { login_type: 'native', email: e2eClinicAdminEmail, password },
  });
  const { access } = tokenPair.parse(await login.json());
  const headers = { authorization: `Bearer ${access}` };
  const started = await request.post(secondFactorPaths.totp, { headers, data: { password } });
  const { secret } = totpEnrolment.parse(await started.json());
  const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() });
  const confirmed = await request.post(secondFactorPaths.confirmTotp, { headers, data: { code } });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  return access;
}

test('a member writes with an X-ray attached and sees the practice’s answer without reloading', async ({
  page,
  request,
  account,
}) => {
  await storeXray(request, account, 'Upper right molar');
  const staff = await staffAccess(request);
  await logIn(page, account);

  await page.getByRole('link', { name: /Messages with the practice/ }).click();
  await expect(page.getByRole('heading', { name: 'Messages', level: 1 })).toBeVisible();
  await expect(page.getByText('You have no messages yet.')).toBeVisible();
  await checkScreen(page, 'messages, empty');
  await page.getByRole('link', { name: 'New message' }).click();
  await page.getByRole('textbox', { name: 'Subject' }).fill('A loose filling');
  await page.getByRole('textbox', { name: 'Message' }).fill('It moves when I chew.');
  const xray = page.getByRole('checkbox', { name: /^X-ray of / });
  await xray.check();
  await checkScreen(page, 'new message');
  await page.getByRole('button', { name: 'Send' }).click();

  await expect(page.getByRole('heading', { name: 'A loose filling', level: 1 })).toBeVisible();
  const messages = page.getByRole('list', { name: 'Messages' });
  await expect(messages.getByRole('link', { name: /^X-ray of / })).toBeVisible();
  await checkScreen(page, 'message thread');
  const threadId = new URL(page.url()).pathname.split('/').pop() ?? '';

  const replied = await request.post(clinicMessagePaths.thread(threadId), {
    headers: { authorization: `Bearer ${staff}` },
    data: { body: 'Please come in on Monday at 9.' },
  });
  expect(replied.status(), await replied.text()).toBe(201);
  // No reload: the event stream brings it.
  await expect(messages.getByText('Please come in on Monday at 9.')).toBeVisible();

  await page.getByRole('link', { name: 'All messages' }).click();
  await expect(page.getByRole('link', { name: 'A loose filling' })).toBeVisible();
  await checkScreen(page, 'messages');
});
