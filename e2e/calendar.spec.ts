import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Download, Page } from '@playwright/test';
import {
  accountPaths,
  appointmentEventSummary,
  appointmentPaths,
  consultationByPhoneText,
  consultationEventSummary,
  tokenPair,
  type Appointment,
} from '@dental/contracts';
import { icsEvents } from '../apps/api/test/support/ics-events';
import { expect, logIn, test, type TestAccount } from './support/fixtures';
import { checkScreen } from './support/layout-checks';

const hour = 3600;

async function downloadedText(download: Promise<Download>): Promise<string> {
  const file = await (await download).path();
  return readFile(file, 'utf8');
}

/** An appointment next week with reminders a day and an hour before, added through the API. */
async function addAppointment(request: APIRequestContext, account: TestAccount) {
  const login = await request.post(accountPaths.login, {
    data: { login_type: 'native', email: account.email, password: account.password },
  });
  const { access } = tokenPair.parse(await login.json());
  const at = new Date(Date.now() + 7 * 24 * hour * 1000);
  at.setUTCSeconds(0, 0);
  const seconds = at.getTime() / 1000;
  const created = await request.post(appointmentPaths.list, {
    headers: { authorization: `Bearer ${access}` },
    data: {
      appointment_date: at.toISOString(),
      note: 'Root canal, second visit',
      email_alert: true,
      sms_alert: false,
      alert_before: [seconds - 24 * hour, seconds - hour],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()) as Appointment;
}

const clickAddToCalendar = (page: Page) => {
  const download = page.waitForEvent('download');
  return { download, click: page.getByRole('button', { name: 'Add to calendar' }).click() };
};

test('book by day then time, learn how it happens, and add it and an appointment to the calendar', async ({
  page,
  request,
  account,
}) => {
  // The grid itself is checked by axe in e2e/virtual-consultation.spec.ts; here the confirmation.
  test.setTimeout(300_000);
  const appointment = await addAppointment(request, account);
  await logIn(page, account);

  await page.goto('/virtual-consultation/book');
  // The consultation journey books Dr. Sofia Marquez's first time; this one takes another doctor's
  // last, so the two never race for one slot.
  await page.getByRole('radio', { name: /Dr\. Kenji Sato/ }).check();
  const days = page.getByRole('radiogroup', { name: 'Day' }).getByRole('radio');
  expect(await days.count()).toBeGreaterThan(1);
  const lastDay = days.last();
  const day = ((await lastDay.textContent()) ?? '').slice(-10);
  expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  await lastDay.click();
  const lastTime = page.getByRole('radiogroup', { name: 'Time' }).getByRole('radio').last();
  const time = (await lastTime.textContent()) ?? '';
  expect(time).toMatch(/^\d{2}:\d{2}$/);
  await lastTime.click();
  await expect(lastTime).toBeChecked();
  for (const question of await page.getByRole('textbox').all()) {
    await question.fill('A loose filling');
  }
  await page.getByRole('button', { name: 'Confirm Reservation' }).click();
  const booked = page.getByRole('alert').filter({ hasText: 'Your consultation is booked' });
  await expect(booked).toContainText(`${day} ${time}`);
  await expect(booked).toContainText(consultationByPhoneText);
  await checkScreen(page, 'booking confirmation');

  const consultation = clickAddToCalendar(page);
  await consultation.click;
  const [event] = icsEvents(await downloadedText(consultation.download));
  const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const startLocal = new Date(event?.start ?? '').toLocaleString('sv-SE', { timeZone: zone });
  expect(startLocal.slice(0, 16)).toBe(`${day} ${time}`);
  expect(event).toMatchObject({
    summary: `${consultationEventSummary} with Dr. Kenji Sato`,
    alarms: [-hour],
  });

  await page.goto(`/appointments/${appointment.id}/edit`);
  await expect(page.getByRole('heading', { name: 'Edit Appointment' })).toBeVisible();
  const appointmentFile = clickAddToCalendar(page);
  await appointmentFile.click;
  expect(icsEvents(await downloadedText(appointmentFile.download))).toMatchObject([
    {
      start: appointment.appointment_date,
      summary: appointmentEventSummary,
      alarms: [-24 * hour, -hour],
    },
  ]);
});

test('the Profile’s calendar feed opens without a session and stops when turned off', async ({
  page,
  request,
  account,
  playwright,
}) => {
  test.setTimeout(120_000);
  const appointment = await addAppointment(request, account);
  await logIn(page, account);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Calendar feed' });
  await section.getByRole('button', { name: 'Create calendar link' }).click();
  const url = await section.getByRole('textbox', { name: 'Your calendar feed URL' }).inputValue();
  expect(url).toMatch(/\/api\/calendar\/[\w-]{43}\/feed\.ics$/);
  await checkScreen(page, 'profile with a calendar feed');

  // A calendar app: no cookies, no bearer token, only the URL.
  const calendarApp = await playwright.request.newContext();
  const feed = await calendarApp.get(url);
  expect(feed.status()).toBe(200);
  expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  const text = await feed.text();
  expect(icsEvents(text)).toMatchObject([
    {
      start: appointment.appointment_date,
      summary: appointmentEventSummary,
      alarms: [-24 * hour, -hour],
    },
  ]);
  expect(text).not.toContain('Root canal');

  await section.getByRole('button', { name: 'Turn off the link' }).click();
  await expect(section.getByRole('button', { name: 'Create calendar link' })).toBeVisible();
  expect((await calendarApp.get(url)).status()).toBe(404);
  await calendarApp.dispose();
});
