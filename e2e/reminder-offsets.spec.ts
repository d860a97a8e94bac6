import { accountPaths, appointmentPaths, pastReminderMessage, tokenPair } from '@dental/contracts';
import { localDate } from './support/dates';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen, phoneViewport } from './support/layout-checks';

const pad = (n: number) => String(n).padStart(2, '0');
const hour = 3600;

// docs/decisions/past-reminder-offsets.md: a reminder that can never fire ('1 week before' a visit five days away) is
// not offered, the form says why, the API refuses it, and the time starts at the next whole hour.
test.describe('on a phone with touch', () => {
  test.use({ viewport: phoneViewport, hasTouch: true });

  test('a reminder already past is not offered, says why, and the API refuses it', async ({
    page,
    account,
  }) => {
    test.setTimeout(180_000);
    await logIn(page, account);
    await page.goto('/appointments/add');
    await expect(page.getByRole('heading', { name: 'New Appointment' })).toBeVisible();

    // The time starts at the next whole hour (the browser and this runner share a clock).
    const nextHour = new Date();
    nextHour.setHours(nextHour.getHours() + 1, 0, 0, 0);
    await expect(page.getByLabel('Time')).toHaveValue(`${pad(nextHour.getHours())}:00`);
    await expect(page.getByLabel('Date')).toHaveValue(localDate(nextHour));

    // A visit five days away at 10:00: one week before was two days ago.
    const visit = new Date();
    visit.setDate(visit.getDate() + 5);
    visit.setHours(10, 0, 0, 0);
    await page.getByLabel('Date').fill(localDate(visit));
    await page.getByLabel('Time').fill('10:00');
    await page.getByRole('switch', { name: 'E-mail alert' }).tap();
    await expect(page.getByRole('switch', { name: 'E-mail alert' })).toBeChecked();

    const week = page.getByRole('checkbox', { name: '1 week before' });
    await expect(week).toBeDisabled();
    await expect(week).toHaveAccessibleDescription(
      'Already past for this date and time, so it could never be sent.',
    );
    await page.getByRole('checkbox', { name: '1 day before' }).tap();
    await expect(page.getByRole('checkbox', { name: '1 day before' })).toBeChecked();
    await checkScreen(page, 'new appointment with a past reminder');

    await page.getByRole('button', { name: 'Save' }).tap();
    const confirmation = page.getByRole('dialog', { name: 'Reminder confirmation' });
    await confirmation.getByRole('button', { name: 'Confirm' }).tap();
    await expect(page).toHaveURL(/\/appointments$/);
    await expect(page.getByRole('article')).toContainText('Reminder by e-mail: 1 day before');

    // The API refuses the same week-before alert sent straight to it, and saves nothing.
    const login = await page.request.post(accountPaths.login, {
      data: { login_type: 'native', email: account.email, password: account.password },
    });
    const { access } = tokenPair.parse(await login.json());
    const visitSeconds = Math.floor(visit.getTime() / 1000);
    const refused = await page.request.post(appointmentPaths.list, {
      headers: { authorization: `Bearer ${access}` },
      data: {
        appointment_date: visit.toISOString(),
        note: 'Never reminded',
        email_alert: true,
        alert_before: [visitSeconds - 168 * hour],
      },
    });
    expect(refused.status()).toBe(400);
    expect(refused.headers()['content-type']).toContain('application/problem+json');
    expect(await refused.json()).toMatchObject({ detail: pastReminderMessage });
    await page.reload();
    await expect(page.getByRole('article')).toHaveCount(1);
  });
});
