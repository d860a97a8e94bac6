import type { Page } from '@playwright/test';
import { expect, loginTermsLabel, logIn, submitLogin, test } from './support/fixtures';
import { expectAccessibleAtAllWidths } from './support/layout-checks';

/** A screen that a guest reaches, and how to bring it up. */
interface GuestScreen {
  name: string;
  open: (page: Page) => Promise<void>;
}

async function openLegalModal(page: Page, phrase: string, title: string) {
  await page.goto('/login');
  // The phrase is a button inside the checkbox label: it opens the text without ticking the box.
  await page.getByRole('button', { name: phrase, exact: true }).click();
  await expect(page.getByRole('dialog', { name: title })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: loginTermsLabel })).not.toBeChecked();
}

const guestScreens: GuestScreen[] = [
  {
    name: 'login',
    open: async (page) => {
      await page.goto('/login');
      await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    },
  },
  {
    name: 'login with the Terms and Conditions modal open',
    open: (page) =>
      openLegalModal(
        page,
        'Terms and Conditions',
        'Terms and Conditions of Usage of our Website and Mobile Application',
      ),
  },
  {
    name: 'login with the Privacy Policy modal open',
    open: (page) => openLegalModal(page, 'Privacy Policy', 'Web And Mobile Privacy Policy'),
  },
  {
    name: 'login with the message modal showing a refused login',
    open: async (page) => {
      await page.goto('/login');
      await submitLogin(page, { email: 'nobody@example.com', password: 'not-the-password' });
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    name: 'sign-up',
    open: async (page) => {
      await page.goto('/signup');
      await expect(page.getByRole('heading', { name: 'Sign up' })).toBeVisible();
    },
  },
  {
    name: 'sign-up with the password mismatch popup',
    open: async (page) => {
      await page.goto('/signup');
      await page.getByRole('textbox', { name: 'Email', exact: true }).fill('mismatch@example.com');
      await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Mismatch');
      await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Molar-first-Floss!');
      await page
        .getByRole('textbox', { name: 'Confirm Password', exact: true })
        .fill('Molar-second-Floss!');
      await page
        .getByRole('checkbox', { name: 'I agree to the Terms of Service and the Privacy Policy' })
        .check();
      await page.getByRole('button', { name: 'Sign up', exact: true }).click();
      const popup = page.getByRole('dialog');
      await expect(popup).toContainText('Password and Confirm Password should be the same.');
      await expect(popup.getByRole('button', { name: 'Close' })).toBeVisible();
    },
  },
  {
    name: 'forgot password',
    open: async (page) => {
      await page.goto('/forget-password');
      await expect(page.getByRole('heading', { name: 'Forgot password' })).toBeVisible();
    },
  },
  {
    name: 'reset password',
    open: async (page) => {
      await page.goto('/update-password?key=a-key-from-an-e-mail');
      await expect(page.getByRole('heading', { name: 'Reset password' })).toBeVisible();
    },
  },
];

for (const screen of guestScreens) {
  test(`${screen.name}: no axe violations, no sideways scroll at 360 px`, async ({ page }) => {
    await screen.open(page);
    await expectAccessibleAtAllWidths(page, screen.name);
  });
}

// One sign-in covers every logged-in screen (login is rate limited per IP); each screen is a
// step with soft assertions, so one failing screen does not hide the others.
test('logged-in screens: no axe violations, no sideways scroll at 360 px', async ({
  page,
  account,
}) => {
  // Seven axe runs, three of them over the whole Profile, on two cores shared with the other
  // workers.
  test.setTimeout(210_000);
  const desktop = page.viewportSize();
  const check = async (name: string, open: () => Promise<void>) => {
    await test.step(name, async () => {
      if (desktop) await page.setViewportSize(desktop);
      await open();
      await expectAccessibleAtAllWidths(page, name);
    });
  };

  await logIn(page, account);
  await check('home', async () => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'You are ready to go!' })).toBeVisible();
    await expect(page.getByRole('link', { name: `Hi, ${account.username}` })).toBeVisible();
  });
  await check('profile', async () => {
    await page.goto('/account');
    await expect(page.getByRole('heading', { name: 'Customer Information' })).toBeVisible();
    await expect(page.getByText(account.email)).toBeVisible();
  });
  await check('profile with the health record details form open', async () => {
    await page.goto('/account');
    await page.getByRole('button', { name: 'Edit health record details' }).click();
    await expect(page.getByRole('textbox', { name: 'Given name' })).toBeVisible();
  });
  await check('profile with the delete confirmation open', async () => {
    await page.goto('/account');
    await page.getByRole('button', { name: 'Delete Account and Data' }).click();
    await expect(page.getByRole('dialog', { name: 'Delete Account and Data' })).toBeVisible();
  });
});
