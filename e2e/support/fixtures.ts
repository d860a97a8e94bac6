import { randomUUID } from 'node:crypto';
import {
  test as base,
  expect,
  type APIRequestContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { accountPaths, configPath, publicConfig, type PublicConfig } from '@dental/contracts';
import { waitForConfirmationKey } from './outbox';

export { expect };

/** A patient the journey signs in as; the password is what the browser types. */
export interface TestAccount {
  email: string;
  username: string;
  password: string;
}

/** Unique per call, so journeys running side by side never share an account. */
export function newAccountDetails(): TestAccount {
  const id = randomUUID().slice(0, 8);
  return {
    email: `patient-${id}@example.com`,
    username: `Patient ${id}`,
    password: `Molar-${id}-Floss!`,
  };
}

/** Creates the account through the API (epic-stack habit: only the sign-up journey clicks) and,
 *  unless `confirmed` is false, confirms its address with the e-mailed link as its owner would,
 *  so that the journeys see the screens without the confirmation banner
 *  (docs/decisions/email-confirmation.md). `dataDir` names the outbox of a server the journey
 *  started itself. */
export async function registerAccount(
  request: APIRequestContext,
  { confirmed = true, dataDir }: { confirmed?: boolean; dataDir?: string } = {},
): Promise<TestAccount> {
  const details = newAccountDetails();
  const response = await request.post(accountPaths.register, {
    data: { email: details.email, username: details.username, password: details.password },
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
  if (confirmed) {
    const confirm = await request.post(accountPaths.confirmEmail, {
      data: { key: await waitForConfirmationKey(details.email, dataDir) },
    });
    expect(confirm.status(), await confirm.text()).toBe(200);
  }
  return details;
}

export async function fetchPublicConfig(request: APIRequestContext): Promise<PublicConfig> {
  const response = await request.get(configPath);
  expect(response.ok(), await response.text()).toBe(true);
  return publicConfig.parse(await response.json());
}

export const loginTermsLabel = 'I agree to the Terms and Conditions and the Privacy Policy';

/** Fills and submits the login form of the page that is open (it must be /login). */
export async function submitLogin(
  page: Page,
  credentials: Pick<TestAccount, 'email' | 'password'>,
) {
  await expect(page.getByRole('heading', { name: 'Log in', exact: true })).toBeVisible();
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(credentials.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(credentials.password);
  await page.getByRole('checkbox', { name: loginTermsLabel }).check();
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

/** Closes a message dialog and waits until its closing animation has taken it away. */
export async function closeDialog(dialog: Locator) {
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
}

/** Opens /login and signs in; resolves once the home screen is shown. */
export async function logIn(page: Page, account: TestAccount) {
  await page.goto('/login');
  await submitLogin(page, account);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'You are ready to go!' })).toBeVisible();
}

export const test = base.extend<{ account: TestAccount }>({
  account: async ({ request }, use) => {
    await use(await registerAccount(request));
  },
});
