import type { Browser, Page } from '@playwright/test';
import { expect, logIn, registerAccount, test, type TestAccount } from './support/fixtures';
import { checkScreen } from './support/layout-checks';
import { localDate } from './support/dates';
import { mailTo } from './support/outbox';
import { storeXray } from './support/stored-photos';

/** A signed-in browser of its own: owner and invitee never share storage. */
async function signedIn(browser: Browser, account: TestAccount, width: number): Promise<Page> {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    viewport: { width, height: width === 360 ? 740 : 800 },
    // The phone is a touch screen.
    hasTouch: width === 360,
  });
  const page = await context.newPage();
  await logIn(page, account);
  return page;
}

async function checkHere(page: Page, screen: string) {
  // Away from the button just clicked: a hovered button is drawn lighter than at rest.
  await page.mouse.move(0, 0);
  await checkScreen(page, screen);
}

// The owner works at a desktop and the invitee on a phone, and every screen is checked at both
// widths: one journey covers both, so it runs once.
test('a member lets another view their X-ray, read-only, on a phone, then revokes it', async ({
  browser,
  request,
  account: owner,
}) => {
  // Two browsers, one of them the clinic console or a second account, on a loaded CI machine.
  test.setTimeout(180_000);
  await storeXray(request, owner, 'Upper right molar');
  const invitee = await registerAccount(request);
  const ownerPage = await signedIn(browser, owner, 1280);

  // The owner invites by e-mail on the Profile.
  await ownerPage.goto('/account');
  const people = ownerPage.getByRole('region', { name: 'People who can view my record' });
  await expect(people.getByText('Nobody can view your record.')).toBeVisible();
  await people.getByRole('textbox', { name: 'Their e-mail address' }).fill(invitee.email);
  await people.getByRole('button', { name: 'Invite' }).click();
  await expect(people.getByRole('status')).toHaveText(
    `We e-mailed an invitation to ${invitee.email}.`,
  );
  await expect(people.getByRole('listitem')).toContainText(invitee.email);
  await expect(people.getByRole('listitem')).toContainText('Invited');
  await checkHere(ownerPage, 'Profile with an invitation');

  // The invitation e-mail names the owner and where to accept.
  let mailText = '';
  await expect
    .poll(async () => {
      mailText = (await mailTo(invitee.email)).map((mail) => mail.text ?? '').join('\n');
      return mailText;
    })
    .toContain(`${owner.username} has invited you to view their dental record`);
  const acceptAt = /http:\/\/localhost:\d+\/account/.exec(mailText)?.[0] ?? '';
  expect(acceptAt).not.toBe('');

  // The invitee, in a browser of their own, accepts on their Profile.
  const inviteePage = await signedIn(browser, invitee, 360);
  await inviteePage.goto(new URL(acceptAt).pathname);
  const shared = inviteePage.getByRole('region', { name: 'Records shared with me' });
  await shared.getByRole('button', { name: `Accept the invitation of ${owner.username}` }).click();
  await expect(shared.getByRole('listitem')).toContainText('Can view');
  await checkHere(inviteePage, 'Profile with a record shared');

  // 'View' takes them to the owner's X-rays, marked read-only (it used to change only the
  // header's choice and leave them on Profile).
  await shared.getByRole('button', { name: `View ${owner.username}’s record` }).tap();
  await expect(inviteePage).toHaveURL(/\/oral-photo$/);
  await expect(
    inviteePage.getByText(`You are viewing ${owner.username}’s record — read only`),
  ).toBeVisible();
  await expect(
    inviteePage.getByRole('combobox', { name: 'Record' }).locator('option:checked'),
  ).toHaveText(`${owner.username}’s record`);
  await inviteePage.getByRole('button', { name: `${localDate()} X-ray` }).click();
  await expect(inviteePage.getByText('Upper right molar').last()).toBeVisible();
  await expect(inviteePage.getByRole('link', { name: '+Add' })).toHaveCount(0);
  await expect(inviteePage.getByRole('link', { name: 'Edit' })).toHaveCount(0);
  await expect(inviteePage.getByRole('button', { name: 'Delete' })).toHaveCount(0);
  await expect(inviteePage.getByRole('button', { name: 'Share' })).toHaveCount(0);
  await checkHere(inviteePage, 'the owner’s X-rays, read-only');
  await inviteePage.getByRole('button', { name: 'View', exact: true }).click();
  await expect(inviteePage.getByRole('dialog')).toBeVisible();
  await inviteePage.keyboard.press('Escape');

  // The owner's activity names the viewer.
  await ownerPage.goto('/account/activity');
  await expect(
    ownerPage.getByText(`${invitee.username} viewed your photos and X-rays`).first(),
  ).toBeVisible();

  // The owner revokes, asked first.
  await ownerPage.goto('/account');
  await people.getByRole('button', { name: `Revoke access of ${invitee.username}` }).click();
  const dialog = ownerPage.getByRole('dialog', { name: 'Revoke access' });
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(people.getByText('Nobody can view your record.')).toBeVisible();

  // The invitee no longer sees the record: back on their own, with no switcher.
  await inviteePage.reload();
  await expect(inviteePage.getByRole('combobox', { name: 'Record' })).toHaveCount(0);
  await expect(inviteePage.getByText(`You are viewing ${owner.username}’s record`)).toHaveCount(0);
  await expect(inviteePage.getByText('No photos in this period.')).toBeVisible();
  await expect(inviteePage.getByText('Upper right molar')).toHaveCount(0);
  await checkHere(inviteePage, 'own photos after the access ended');
});
