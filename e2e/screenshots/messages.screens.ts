import { messagePaths, accountPaths, tokenPair, createdMessage } from '@dental/contracts';
import { expect, logIn, test } from '../support/fixtures';
import { storeXray } from '../support/stored-photos';
import { shoot } from './shoot';

// The member's Messages screens (docs/product/messages.md#screens): the list with a thread, the
// thread with its attached X-ray, and New message with the member's items to attach.
test('the member’s Messages, a conversation and New message', async ({
  page,
  request,
  account,
}) => {
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
});
