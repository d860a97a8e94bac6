import { accountPaths, appointmentPaths, tokenPair } from '@dental/contracts';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen, phoneViewport } from './support/layout-checks';
import { mailTo } from './support/outbox';

const pad = (n: number) => String(n).padStart(2, '0');
const mmddyyyy = (date: Date) =>
  `${pad(date.getMonth() + 1)}-${pad(date.getDate())}-${String(date.getFullYear())}`;

// docs/product/appointments.md#check-up-recall: the member asks on the Appointments screen to be
// reminded of a check-up 6 or 12 months after the last past appointment; once due, it is sent
// once through the job queue.
test.describe('on a phone with touch', () => {
  test.use({ viewport: phoneViewport, hasTouch: true });

  test('a member sets a 6-month check-up reminder and, being due, gets it once', async ({
    page,
    account,
  }) => {
    test.setTimeout(240_000);
    // A visit seven months ago, at 10:00: six months on, the reminder is a month overdue.
    const visit = new Date();
    visit.setMonth(visit.getMonth() - 7);
    visit.setHours(10, 0, 0, 0);
    const login = await page.request.post(accountPaths.login, {
      data: { login_type: 'native', email: account.email, password: account.password },
    });
    const { access } = tokenPair.parse(await login.json());
    const saved = await page.request.post(appointmentPaths.list, {
      headers: { authorization: `Bearer ${access}` },
      data: { appointment_date: visit.toISOString(), note: 'Filling, upper right' },
    });
    expect(saved.status()).toBe(201);

    await logIn(page, account);
    await page.goto('/appointments');
    const section = page.getByRole('region', { name: 'Check-up reminder' });
    await expect(section).toContainText('No check-up reminder is set.');
    await section.getByRole('radio', { name: 'Every 6 months' }).tap();
    await expect(section.getByRole('checkbox', { name: 'E-mail' })).toBeChecked();
    await section.getByRole('checkbox', { name: 'SMS' }).tap();
    await expect(section).toContainText(
      'Add a phone number on your Profile so that the SMS can reach you.',
    );
    await section.getByRole('checkbox', { name: 'SMS' }).tap();
    await section.getByRole('button', { name: 'Save reminder' }).tap();
    await expect(section.getByText('Saved.')).toBeVisible();
    const due = new Date(visit);
    due.setMonth(due.getMonth() + 6);
    await expect(section).toContainText(
      `Your last appointment was on ${mmddyyyy(visit)}, so the reminder is due on ${mmddyyyy(due)}.`,
    );
    await checkScreen(page, 'appointments with the check-up reminder');
    await page.reload();
    await expect(section.getByRole('radio', { name: 'Every 6 months' })).toBeChecked();

    // The sweep runs every minute: the overdue reminder arrives once, without the note.
    await expect
      .poll(async () => (await mailTo(account.email)).map((mail) => mail.subject), {
        timeout: 150_000,
        intervals: [2000],
      })
      .toContain('A reminder from Dental Companion');
    const recalls = (await mailTo(account.email)).filter(
      (mail) => mail.subject === 'A reminder from Dental Companion',
    );
    expect(recalls).toHaveLength(1);
    expect(recalls[0]?.text).toContain('it is time to book your next check-up');
    expect(recalls[0]?.text).not.toContain('Filling');
  });
});
