import { openConsole, staffAccount } from './support/clinic-staff';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';
import { mailTo } from './support/outbox';
import { storeXray } from './support/stored-photos';

// Messages with the practice (docs/product/messages.md): the member writes with an X-ray
// attached; the practice's first administrator (invited from CLINIC_ADMIN_EMAIL when the server
// starts) reads it in the clinic console, opens the X-ray and answers there; the member sees the
// answer arrive without reloading, and the notice e-mail says neither the subject nor the text.
// Each screen, the member's and the console's, checked at 1280 and 360 px.

test('a member writes with an X-ray attached, the practice answers in the console and the member sees it without reloading', async ({
  page,
  request,
  account,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  await storeXray(request, account, 'Upper right molar');
  const staff = await staffAccount(request);
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

  const consolePage = await openConsole(browser, testInfo.project.use.baseURL, staff);
  await test.step('the administrator reads it in the console, opens the X-ray and replies', async () => {
    const nav = consolePage.getByRole('navigation', { name: 'Console' });
    await nav.getByRole('link', { name: 'Messages, 1 unread' }).click();
    await expect(consolePage.getByRole('heading', { name: 'Messages', level: 1 })).toBeVisible();
    const conversation = consolePage
      .getByRole('list', { name: 'Conversations' })
      .getByRole('listitem')
      .filter({ hasText: 'A loose filling' });
    await expect(conversation).toContainText('1 unread');
    await expect(conversation).toContainText('Not assigned');
    await checkScreen(consolePage, 'clinic console: messages');

    await conversation.getByRole('link', { name: 'A loose filling' }).click();
    await expect(
      consolePage.getByRole('heading', { name: 'A loose filling', level: 1 }),
    ).toBeVisible();
    const thread = consolePage.getByRole('list', { name: 'Messages' });
    await expect(thread.getByText('It moves when I chew.')).toBeVisible();
    // Read: the navigation's count goes down through the staff event stream.
    await expect(nav.getByRole('link', { name: 'Messages', exact: true })).toBeVisible();
    await consolePage.getByRole('button', { name: 'Assign to me' }).click();
    await expect(consolePage.getByText('Assigned to you')).toBeVisible();
    await checkScreen(consolePage, 'clinic console: a conversation');

    await thread.getByRole('button', { name: /^View X-ray of / }).click();
    const viewer = consolePage.getByRole('dialog', { name: 'Lightbox' });
    await expect(viewer.getByRole('img', { name: /^X-ray of / })).toBeVisible();
    await consolePage.keyboard.press('Escape');
    await expect(viewer).toBeHidden();

    await consolePage
      .getByRole('textbox', { name: 'Reply' })
      .fill('Please come in on Monday at 9.');
    await consolePage.getByRole('button', { name: 'Send reply' }).click();
    await expect(thread.getByText('Please come in on Monday at 9.')).toBeVisible();
    await expect(consolePage.getByRole('textbox', { name: 'Reply' })).toHaveValue('');
  });

  // No reload: the event stream brings it.
  await expect(messages.getByText('Please come in on Monday at 9.')).toBeVisible();

  await test.step('the notice e-mail says there is a message, never its subject or text', async () => {
    let notices: string[] = [];
    await expect
      .poll(
        async () => {
          notices = (await mailTo(account.email))
            .filter((mail) => (mail.text ?? '').includes('/messages'))
            .map((mail) =>
              [
                mail.subject ?? '',
                mail.text ?? '',
                typeof mail.html === 'string' ? mail.html : '',
              ].join('\n'),
            );
          return notices.length;
        },
        { message: 'the new-message notice e-mail', timeout: 30_000 },
      )
      .toBe(1);
    for (const notice of notices) {
      expect(notice).not.toContain('A loose filling');
      expect(notice).not.toContain('Please come in');
      expect(notice).not.toContain('chew');
    }
  });

  await page.getByRole('link', { name: 'All messages' }).click();
  await expect(page.getByRole('link', { name: 'A loose filling' })).toBeVisible();
  await checkScreen(page, 'messages');
  await consolePage.context().close();
});
