import { messagePaths, accountPaths, tokenPair, createdMessage } from '@dental/contracts';
import { openConsole, staffAccount } from '../support/clinic-staff';
import { expect, logIn, test } from '../support/fixtures';
import { storeXray } from '../support/stored-photos';
import { shoot } from './shoot';

// The member's Messages screens (docs/product/messages.md#screens): the list with a thread, the
// thread with its attached X-ray, and New message with the member's items to attach; then the
// clinic console's Messages (docs/clinic.md): the list with the unread mark and the conversation.
test('the member’s Messages, a conversation and New message; the console’s Messages', async ({
  page,
  request,
  account,
  browser,
}, testInfo) => {
  test.setTimeout(120_000);
  const staff = await staffAccount(request);
  const xray = await storeXray(request, account, 'Upper right molar');
  const login = await request.post(accountPaths.login, {
    data: { login_type: 'native', email: account.email, password: account.password },
  });
  const { access } = tokenPair.parse(await login.json());
  const created = await request.post(messagePaths.threads, {
    headers: { authorization: `Bearer ${access}` },
    data: {
      subject: 'A loose filling',
      body: 'My filling moves when I chew.\nCould someone look at this X-ray?',
      attachments: [{ kind: 'photo', id: xray.id }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = createdMessage.parse(await created.json());

  await logIn(page, account);
  await page.goto('/messages');
  await expect(page.getByRole('link', { name: 'A loose filling' })).toBeVisible();
  await shoot(page, 'messages-list');
  await page.goto(`/messages/${id}`);
  await expect(page.getByRole('heading', { name: 'A loose filling', level: 1 })).toBeVisible();
  await shoot(page, 'messages-thread');
  await page.goto('/messages/new');
  await expect(page.getByRole('checkbox')).toHaveCount(1);
  await shoot(page, 'messages-new');

  const consolePage = await openConsole(browser, testInfo.project.use.baseURL, staff);
  await consolePage.goto('/clinic/messages');
  await expect(consolePage.getByRole('link', { name: 'A loose filling' })).toBeVisible();
  await shoot(consolePage, 'clinic-messages');
  await consolePage.getByRole('link', { name: 'A loose filling' }).click();
  await expect(
    consolePage.getByText('My filling moves when I chew.', { exact: false }),
  ).toBeVisible();
  await consolePage.getByRole('button', { name: 'Assign to me' }).click();
  await expect(consolePage.getByText('Assigned to you')).toBeVisible();
  await shoot(consolePage, 'clinic-message');
  await consolePage.context().close();
});
