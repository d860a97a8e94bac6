import { plans } from '@dental/contracts';
import { expect, fetchPublicConfig, logIn, test } from './support/fixtures';
import { topicCards } from './support/sections';

test('the framed home opens every topic card and Membership Upgrade inside the layout', async ({
  page,
  account,
  request,
}) => {
  const { company_name: companyName } = await fetchPublicConfig(request);
  await logIn(page, account);
  await expect(page.getByText(`© ${new Date().getFullYear()} ${companyName}`)).toBeVisible();
  // A locked card says what the plan changes, with the plan table's numbers.
  await expect(
    page.getByRole('link', { name: 'Dental AI', exact: true }),
  ).toHaveAccessibleDescription(
    `Silver: ${String(plans.Silver.dentalAiUsesPerYear)} Dental AI uses a year`,
  );
  await expect(page.getByText('Members feature')).toHaveCount(0);

  const sections = [...topicCards, { name: 'Membership Upgrade', path: '/membership' }];
  for (const section of sections) {
    await test.step(section.name, async () => {
      await page.getByRole('link', { name: section.name, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${section.path}/?$`));
      await expect(page.getByRole('link', { name: `Hi, ${account.username}` })).toBeVisible();
      await page.getByRole('link', { name: 'Home', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'You are ready to go!' })).toBeVisible();
    });
  }
});
