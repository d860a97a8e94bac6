import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { accountPaths, appointmentPaths, tokenPair } from '@dental/contracts';
import { localDate } from './support/dates';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';

/** The reminder e-mails to `email` in the e2e server's mail outbox. */
async function remindersTo(email: string): Promise<ParsedMail[]> {
  const dataDir = process.env.E2E_DATA_DIR;
  if (dataDir === undefined)
    throw new Error('E2E_DATA_DIR is not set; run through playwright.config.ts.');
  const dir = path.join(dataDir, 'outbox', 'mail');
  const names = await readdir(dir).catch(() => [] as string[]);
  const mails = await Promise.all(
    names
      .filter((name) => name.endsWith('.eml'))
      .map(async (name) => simpleParser(await readFile(path.join(dir, name)))),
  );
  return mails.filter(
    (mail) =>
      mail.subject?.startsWith('Reminder: your dental appointment') === true &&
      [mail.to ?? []].flat().some((to) => to.value.some((entry) => entry.address === email)),
  );
}

const pad = (n: number) => String(n).padStart(2, '0');
const localTime = (date: Date) => `${pad(date.getHours())}:${pad(date.getMinutes())}`;

test('a patient adds an appointment with an e-mail reminder, gets the reminder, edits and deletes it', async ({
  page,
  account,
}) => {
  test.setTimeout(300_000);
  await logIn(page, account);
  await page.goto('/appointments');
  await expect(page.getByRole('heading', { name: 'Appointments Remind & History' })).toBeVisible();
  await expect(page.getByText('No appointments in this period.')).toBeVisible();
  await checkScreen(page, 'appointment list');

  await page.getByRole('link', { name: '+Add' }).click();
  await expect(page).toHaveURL(/\/appointments\/add$/);
  await expect(page.getByRole('heading', { name: 'New Appointment' })).toBeVisible();
  await checkScreen(page, 'new appointment');

  // The time field takes whole minutes: the one-hour reminder is due at the first whole minute at
  // least 45 s from now, so it is still ahead when the form is saved (a past alert is not sent).
  const alertAt = new Date(Date.now() + 45_000);
  if (alertAt.getSeconds() > 0 || alertAt.getMilliseconds() > 0) {
    alertAt.setSeconds(60, 0);
  }
  const appointmentAt = new Date(alertAt.getTime() + 3600_000);
  await page.getByLabel('Date').fill(localDate(appointmentAt));
  await page.getByLabel('Time').fill(localTime(appointmentAt));
  await page.getByLabel('Note').fill('Check-up with Dr. Lee');
  await page.getByRole('switch', { name: 'E-mail alert' }).check();
  await page.getByRole('checkbox', { name: '1 hour before' }).check();
  await page.getByRole('button', { name: 'Save' }).click();

  const confirmation = page.getByRole('dialog', { name: 'Reminder confirmation' });
  await expect(confirmation).toContainText(`E-mail reminders go to ${account.email}.`);
  await checkScreen(page, 'reminder confirmation');
  await confirmation.getByRole('button', { name: 'Confirm' }).click();

  await expect(page).toHaveURL(/\/appointments$/);
  const card = page.getByRole('article');
  await expect(card).toHaveCount(1);
  const day = appointmentAt.toLocaleDateString('en-US', { weekday: 'short' });
  const [hours, minutes] = [appointmentAt.getHours(), appointmentAt.getMinutes()];
  const time = `${pad(hours % 12 === 0 ? 12 : hours % 12)}:${pad(minutes)} ${hours < 12 ? 'AM' : 'PM'}`;
  const date = `${pad(appointmentAt.getMonth() + 1)}-${pad(appointmentAt.getDate())}-${String(appointmentAt.getFullYear())} ${day}`;
  await expect(card).toContainText(date);
  await expect(card).toContainText(time);
  await expect(card).toContainText('Check-up with Dr. Lee');

  // The reminder arrives in the outbox at its time, with the date, time, link and the note.
  await expect
    .poll(async () => (await remindersTo(account.email)).length, {
      message: `a reminder e-mail to ${account.email}`,
      timeout: 180_000,
      intervals: [1000],
    })
    .toBe(1);
  const [reminder] = await remindersTo(account.email);
  expect(reminder?.text).toContain(`${date} at ${time}`);
  expect(reminder?.text).toMatch(/\/appointments\/[0-9a-f-]{36}\/edit/);
  expect(reminder?.text).toContain('Your note: Check-up with Dr. Lee');

  await card.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Appointment' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: '1 hour before' })).toBeChecked();
  await expect(page.getByRole('checkbox', { name: '1 day before' })).not.toBeChecked();
  await checkScreen(page, 'edit appointment');
  await page.getByLabel('Note').fill('Check-up and cleaning');
  await page.getByRole('button', { name: 'Save' }).click();
  await page
    .getByRole('dialog', { name: 'Reminder confirmation' })
    .getByRole('button', { name: 'Confirm' })
    .click();
  await expect(page).toHaveURL(/\/appointments$/);
  await expect(page.getByRole('article')).toContainText('Check-up and cleaning');

  await page.getByRole('article').getByRole('button', { name: 'Delete' }).click();
  const confirmDelete = page.getByRole('dialog', { name: 'Delete appointment' });
  await confirmDelete.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByRole('article')).toHaveCount(0);
  await expect(page.getByText('No appointments in this period.')).toBeVisible();
  // The edit kept the alert that was already sent; it was not sent again.
  expect(await remindersTo(account.email)).toHaveLength(1);
});

test('shows 30 appointments at a time and the rest with Load more', async ({
  page,
  account,
  request,
}) => {
  // axe twice on two screens: slow on a shared two-core machine.
  test.setTimeout(300_000);
  const login = await request.post(accountPaths.login, {
    data: { login_type: 'native', email: account.email, password: account.password },
  });
  const { access } = tokenPair.parse(await login.json());
  // 31 visits a quarter of an hour apart, the day after tomorrow, inside the default range.
  const start = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000);
  start.setHours(8, 0, 0, 0);
  for (let visit = 1; visit <= 31; visit += 1) {
    const stored = await request.post(appointmentPaths.list, {
      headers: { authorization: `Bearer ${access}` },
      data: {
        appointment_date: new Date(start.getTime() + visit * 15 * 60 * 1000).toISOString(),
        note: `Visit ${String(visit)}`,
      },
    });
    expect(stored.status(), await stored.text()).toBe(201);
  }

  await logIn(page, account);
  await page.goto('/appointments');
  const cards = page.getByRole('article');
  const loadMore = page.getByRole('button', { name: 'Load more appointments' });
  await expect(loadMore).toBeVisible();
  await expect(cards).toHaveCount(30);
  await checkScreen(page, 'appointment list with Load more');

  // From the keyboard: the latest visit comes in below the others, soonest first.
  await loadMore.focus();
  await page.keyboard.press('Enter');
  await expect(cards).toHaveCount(31);
  await expect(cards.last()).toContainText('Visit 31');
  await expect(loadMore).toHaveCount(0);
  await expect(page.getByText('All 31 appointments are shown.')).toBeFocused();
  await checkScreen(page, 'appointment list with every page loaded');
});
