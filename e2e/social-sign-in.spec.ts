import { randomUUID } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import { socialProviderNames, type SocialProvider } from '@dental/contracts';
import { expect, fetchPublicConfig, loginTermsLabel, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';

/** The local providers (scripts/e2e-server.mjs) answer for whoever was set last. */
async function nextProviderUser(
  request: APIRequestContext,
  verified = true,
): Promise<{ sub: string; email: string }> {
  const config = await fetchPublicConfig(request);
  const facebook = config.social_providers.find((client) => client.provider === 'facebook');
  if (facebook === undefined) throw new Error('The e2e server configures no Facebook stand-in.');
  const who = { sub: randomUUID(), email: `social-${randomUUID().slice(0, 8)}@example.com` };
  const response = await request.post(new URL('/test/identity', facebook.authorize_url).href, {
    data: { ...who, email_verified: verified },
  });
  expect(response.ok()).toBe(true);
  return who;
}

async function continueWith(page: Page, provider: SocialProvider) {
  await page.goto('/login');
  const button = page.getByRole('button', {
    name: `Continue with ${socialProviderNames[provider]}`,
  });
  await expect(button).toBeDisabled();
  await page.getByRole('checkbox', { name: loginTermsLabel }).check();
  await button.click();
}

const home = (page: Page) => page.getByRole('heading', { name: 'You are ready to go!' });

test('a first sign-in with Google, Apple or Facebook creates the account; a used callback is refused', async ({
  browser,
  request,
}) => {
  // Three sign-ins, each in a browser context of its own, on two cores shared with other workers.
  test.setTimeout(180_000);
  for (const provider of ['google', 'apple', 'facebook'] as const) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const who = await nextProviderUser(request);
    const callback = page.waitForRequest((req) => req.url().includes('/auth/callback?'));
    await continueWith(page, provider);
    const callbackUrl = (await callback).url();
    await expect(home(page)).toBeVisible();
    await page.goto('/account');
    await expect(page.getByText(who.email).first()).toBeVisible();

    if (provider === 'google') {
      await checkScreen(page, 'profile with a linked Google account');
      // The same callback again (a replayed state) signs no one in.
      await page.goto(callbackUrl);
      await expect(page.getByRole('alert')).toContainText(
        'This sign-in is no longer valid. Please start again from the login screen.',
      );
      await checkScreen(page, 'sign-in callback refused');
    }
    await context.close();
  }
});

test('an e-mail the provider has not confirmed creates no account', async ({ page, request }) => {
  await nextProviderUser(request, false);
  await continueWith(page, 'facebook');
  await expect(page.getByRole('alert')).toContainText(
    'Facebook has not confirmed the e-mail address of this account',
  );
  await page.getByRole('link', { name: 'Back to log in' }).click();
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await checkScreen(page, 'login with social providers');
});

test('a member links and unlinks Google on the Profile; the last way to sign in stays', async ({
  browser,
  page,
  account,
  request,
}) => {
  await logIn(page, account);
  await page.goto('/account');
  const who = await nextProviderUser(request);
  await page.getByRole('button', { name: 'Connect Google' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText(who.email)).toBeVisible();
  await page.getByRole('button', { name: 'Disconnect Google' }).click();
  await expect(page.getByRole('button', { name: 'Connect Google' })).toBeVisible();
  await expect(page.getByText(who.email)).toHaveCount(0);

  // A member who signed up with Apple has no password: Apple cannot be disconnected.
  const context = await browser.newContext();
  const applePage = await context.newPage();
  await nextProviderUser(request);
  await continueWith(applePage, 'apple');
  await expect(home(applePage)).toBeVisible();
  await applePage.goto('/account');
  await applePage.getByRole('button', { name: 'Disconnect Apple' }).click();
  await expect(applePage.getByRole('alert')).toContainText(
    'Apple is the only way you can sign in, so it cannot be disconnected.',
  );
  await expect(applePage.getByRole('button', { name: 'Disconnect Apple' })).toBeVisible();
  await checkScreen(applePage, 'profile refusing to unlink the last sign-in method');
  await context.close();
});
