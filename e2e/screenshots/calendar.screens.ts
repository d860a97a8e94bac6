import { shoot } from './shoot';
import { logIn, test } from '../support/fixtures';

test('calendar screens', async ({ page, account }) => {
  test.setTimeout(120_000);
  await logIn(page, account);
  await page.goto('/virtual-consultation/book');
  await page.getByRole('radio', { name: /Dr\. Kenji Sato/ }).check();
  await page.getByRole('radiogroup', { name: 'Day' }).getByRole('radio').last().click();
  await page.getByRole('radiogroup', { name: 'Time' }).getByRole('radio').nth(2).click();
  await shoot(page, 'consultation-booking', page.getByRole('radiogroup', { name: 'Day' }));
  for (const question of await page.getByRole('textbox').all()) {
    await question.fill('A loose filling');
  }
  await page.getByRole('button', { name: 'Confirm Reservation' }).click();
  await page.getByText('Your consultation is booked').waitFor();
  await shoot(page, 'consultation-booked');

  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Calendar feed' });
  await section.getByRole('button', { name: 'Create calendar link' }).click();
  await section.getByRole('textbox', { name: 'Your calendar feed URL' }).waitFor();
  await shoot(page, 'profile-calendar-feed', section);
});
