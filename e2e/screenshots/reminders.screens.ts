import { localDate } from '../support/dates';
import { logIn, test } from '../support/fixtures';
import { shoot } from './shoot';

test('reminder choices already past', async ({ page, account }) => {
  test.setTimeout(120_000);
  await logIn(page, account);
  await page.goto('/appointments/add');
  // A visit five days away: '1 week before' is past, so it is off and says why.
  const visit = new Date();
  visit.setDate(visit.getDate() + 5);
  await page.getByLabel('Date').fill(localDate(visit));
  await page.getByLabel('Time').fill('10:00');
  await page.getByLabel('Note').fill('Check-up with Dr. Lee');
  await page.getByRole('switch', { name: 'E-mail alert' }).check();
  await page.getByRole('checkbox', { name: '1 day before' }).check();
  await shoot(page, 'appointment-reminders-past', page.getByRole('button', { name: 'Save' }));
});
