import {
  accountPaths,
  appointmentPaths,
  medicalRecordPaths,
  tokenPair,
  type AppointmentRequest,
} from '@dental/contracts';
import type { APIRequestContext } from '@playwright/test';
import { openAddScreen } from './support/add-screen';
import { localDate } from './support/dates';
import {
  expect,
  fetchPublicConfig,
  logIn,
  newAccountDetails,
  registerAccount,
  test,
  type TestAccount,
} from './support/fixtures';
import { atNarrowWidth, checkScreen } from './support/layout-checks';

// The defects a new patient saw (docs/decisions/patient-grade-defects.md): one journey per
// defect that the screens showed before the fix.

const day = 24 * 3600 * 1000;

async function accessToken(request: APIRequestContext, account: TestAccount): Promise<string> {
  const response = await request.post(accountPaths.login, {
    data: { login_type: 'native', email: account.email, password: account.password },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return tokenPair.parse(await response.json()).access;
}

/** Saves an appointment at 10:00 local time `daysAhead` days from now (negative: in the past). */
async function addAppointment(
  request: APIRequestContext,
  account: TestAccount,
  daysAhead: number,
  fields: Partial<AppointmentRequest> = {},
): Promise<string> {
  const when = new Date(Date.now() + daysAhead * day);
  when.setHours(10, 0, 0, 0);
  const response = await request.post(appointmentPaths.list, {
    headers: { authorization: `Bearer ${await accessToken(request, account)}` },
    data: { appointment_date: when.toISOString(), note: 'Check-up', ...fields },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

test('1. Edit Appointment shows the saved e-mail and SMS alerts as they are', async ({
  page,
  account,
  request,
}) => {
  const when = new Date(Date.now() + 3 * day);
  when.setHours(10, 0, 0, 0);
  const id = await addAppointment(request, account, 3, {
    email_alert: true,
    sms_alert: false,
    alert_before: [Math.floor(when.getTime() / 1000) - 24 * 3600],
  });
  await logIn(page, account);
  await page.goto(`/appointments/${id}/edit`);
  await expect(page.getByRole('heading', { name: 'Edit Appointment' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'E-mail alert' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'SMS alert' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: '1 day before' })).toBeChecked();
  // Switched off here and saved, the e-mail alert is off for real.
  await page.getByRole('switch', { name: 'E-mail alert' }).uncheck();
  await page.getByRole('checkbox', { name: '1 day before' }).uncheck();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/appointments$/);
  await page.goto(`/appointments/${id}/edit`);
  await expect(page.getByRole('switch', { name: 'E-mail alert' })).not.toBeChecked();
});

test('2. Add New Records checks the title before sending and clears the error once it is typed', async ({
  page,
  account,
}) => {
  await logIn(page, account);
  await page.goto('/medical-records');
  await openAddScreen(page, /\/medical-records\/add$/);
  const posts: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() === 'POST' && sent.url().includes(medicalRecordPaths.list)) {
      posts.push(sent.url());
    }
  });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Title is required.')).toBeVisible();
  await page.getByLabel('Title').fill('Insurance card');
  await expect(page.getByText('Title is required.')).toBeHidden();
  expect(posts).toEqual([]);
  await checkScreen(page, 'add record');
});

test('3. Reservation History shows its whole Consultation record toggle at 360 px', async ({
  page,
  account,
}) => {
  await logIn(page, account);
  await atNarrowWidth(page, async () => {
    await page.goto('/virtual-consultation/reservation-record');
    const label = page.getByText('Consultation record', { exact: true });
    await expect(label).toBeVisible();
    // Cut off: a box around the text that hides its overflow (the segment's label with its
    // ellipsis, or the whole control) is narrower than what it holds.
    const cut = await label.evaluate((element) => {
      for (let box = element.parentElement; box !== null; box = box.parentElement) {
        const hides = getComputedStyle(box).overflowX !== 'visible';
        if (hides && box.scrollWidth > box.clientWidth) return true;
      }
      return false;
    });
    expect(cut, "the label 'Consultation record' is cut off").toBe(false);
  });
  await checkScreen(page, 'reservation history');
});

test('4. Previous shows the past month by default', async ({ page, account, request }) => {
  await addAppointment(request, account, -10, { note: 'Cleaning ten days ago' });
  await logIn(page, account);
  await page.goto('/appointments');
  await page.getByText('Previous', { exact: true }).click();
  await expect(page.getByRole('article')).toContainText('Cleaning ten days ago');
  await expect(page.getByLabel('To', { exact: true })).toHaveValue(localDate());
});

test('5. A record dated outside the filter is shown after saving: the range widens to it', async ({
  page,
  account,
}) => {
  await logIn(page, account);
  await page.goto('/medical-records');
  await openAddScreen(page, /\/medical-records\/add$/);
  const longAgo = localDate(new Date(Date.now() - 120 * day));
  await page.getByLabel('Title').fill('Old insurance claim');
  await page.getByLabel('Record date').fill(longAgo);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/medical-records$/);
  await expect(page.getByText('Old insurance claim')).toBeVisible();
  await expect(page.getByLabel('From', { exact: true })).toHaveValue(longAgo);
});

test('6. An alert without a time or a time without an alert is refused; cards show the reminder', async ({
  page,
  account,
  request,
}) => {
  await addAppointment(request, account, 2, { note: 'No reminder here' });
  await logIn(page, account);
  await page.goto('/appointments');
  await expect(page.getByRole('article')).toContainText('No reminder set');

  await page.getByRole('link', { name: '+Add' }).click();
  await page.getByLabel('Date').fill(localDate(new Date(Date.now() + 5 * day)));
  await page.getByLabel('Time').fill('09:30');
  await page.getByLabel('Note').fill('Crown fitting');
  await page.getByRole('switch', { name: 'E-mail alert' }).check();
  await page.getByRole('button', { name: 'Save' }).click();
  const noTime = page.getByText('Choose when to be reminded: 1 hour, 1 day or 1 week before.');
  await expect(noTime).toBeVisible();
  await page.getByRole('switch', { name: 'E-mail alert' }).uncheck();
  await page.getByRole('checkbox', { name: '1 day before' }).check();
  await expect(noTime).toBeHidden();
  const noChannel = page.getByText('Switch on the E-mail alert or the SMS alert to be reminded.');
  await expect(noChannel).toBeVisible();
  await checkScreen(page, 'new appointment with a reminder error');
  await page.getByRole('switch', { name: 'E-mail alert' }).check();
  await expect(noChannel).toBeHidden();
  await page.getByRole('button', { name: 'Save' }).click();
  await page
    .getByRole('dialog', { name: 'Reminder confirmation' })
    .getByRole('button', { name: 'Confirm' })
    .click();
  await expect(page).toHaveURL(/\/appointments$/);
  await expect(page.getByRole('article').filter({ hasText: 'Crown fitting' })).toContainText(
    'Reminder by e-mail: 1 day before',
  );
  await checkScreen(page, 'appointment list with reminders');
});

test('9. Signing up with a deleted account’s address points to customer service', async ({
  page,
  request,
}) => {
  const { customer_service_email: serviceEmail } = await fetchPublicConfig(request);
  const account = await registerAccount(request);
  const deleted = await request.delete(accountPaths.account, {
    headers: { authorization: `Bearer ${await accessToken(request, account)}` },
  });
  expect(deleted.status(), await deleted.text()).toBe(204);

  await page.goto('/signup');
  const again = newAccountDetails();
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(account.email);
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(again.username);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(again.password);
  await page.getByRole('textbox', { name: 'Confirm Password', exact: true }).fill(again.password);
  await page
    .getByRole('checkbox', { name: 'I agree to the Terms of Service and the Privacy Policy' })
    .check();
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('dialog')).toContainText(
    `If you deleted your account, customer service at ${serviceEmail} can reactivate it.`,
  );
});

test('10. A list that fails to load says so and offers Retry, unlike an empty list', async ({
  page,
  account,
}) => {
  await logIn(page, account);
  await page.route(`**${appointmentPaths.list}?*`, (route) =>
    route.fulfill({ status: 503, body: 'down' }),
  );
  await page.goto('/appointments');
  await expect(page.getByText('Loading failed')).toBeVisible();
  await expect(page.getByText('No appointments in this period.')).toBeHidden();
  await checkScreen(page, 'appointment list that failed to load');
  await page.unroute(`**${appointmentPaths.list}?*`);
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('No appointments in this period.')).toBeVisible();
  await expect(page.getByText('Loading failed')).toBeHidden();
});

test('11. A number pasted with +44 picks the United Kingdom while the US flag is selected', async ({
  page,
}) => {
  await page.goto('/signup');
  const country = page.getByRole('combobox', { name: 'Phone number country' });
  await expect(country).toHaveValue('US');
  await page.getByRole('textbox', { name: 'Phone', exact: true }).fill('+44 20 7946 0958');
  await expect(country).toHaveValue('GB');
  await expect(page.getByRole('textbox', { name: 'Phone', exact: true })).toHaveValue(
    '+44 20 7946 0958',
  );
});
