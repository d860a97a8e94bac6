import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { accountPaths } from '@dental/contracts';
import { expect, newAccountDetails, logIn, submitLogin, test } from './support/fixtures';
import { checkScreen, expectAccessibleAtAllWidths } from './support/layout-checks';
import { mailTo } from './support/outbox';
import { clinicCommand, startOwnServer } from './support/own-server';

/** The seeded form's questions (apps/api/src/modules/virtual-consultation/clinic.service.ts). */
const answers = [
  ['What would you like to discuss with the dentist?', 'A chipped upper front tooth'],
  ['Do you have pain or sensitivity? Where, and since when?', 'Cold drinks hurt since Monday'],
  ['Do you take any medicines or have allergies we should know about?', 'No allergies'],
] as const;

test('book a consultation, find it under Current Reservation with its answers, and cancel it', async ({
  page,
  account,
}) => {
  // Four screens, each checked by axe at two widths.
  test.setTimeout(240_000);
  await logIn(page, account);
  await page.getByRole('link', { name: 'Virtual Consultation', exact: true }).click();
  await expect(page).toHaveURL(/\/virtual-consultation\/?$/);
  await expect(page.getByRole('heading', { name: 'Virtual Consultation' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Reservation Record' })).toBeVisible();
  await checkScreen(page, 'consultation hub');

  await page.getByRole('link', { name: 'Reservation', exact: true }).click();
  await expect(page).toHaveURL(/\/virtual-consultation\/book$/);
  await page.getByRole('radio', { name: /Dr\. Sofia Marquez/ }).check();
  const firstDay = page.getByRole('radiogroup', { name: 'Day' }).getByRole('radio').first();
  const day = ((await firstDay.textContent()) ?? '').slice(-10);
  await firstDay.click();
  const firstTime = page.getByRole('radiogroup', { name: 'Time' }).getByRole('radio').first();
  const chosenTime = `${day} ${(await firstTime.textContent()) ?? ''}`;
  expect(chosenTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
  await firstTime.click();
  for (const [question, answer] of answers) {
    await page.getByRole('textbox', { name: question }).fill(answer);
  }
  await checkScreen(page, 'booking page');
  await page.getByRole('button', { name: 'Confirm Reservation' }).click();
  await expect(page.getByText('Your consultation is booked')).toBeVisible();

  await page.getByRole('link', { name: 'Go to Reservation Record' }).click();
  await expect(page.getByRole('heading', { name: 'Reservation History' })).toBeVisible();
  const card = page.getByRole('button', { name: /Dr\. Sofia Marquez/ });
  await expect(card).toContainText(chosenTime);
  await expect(card).toContainText(
    await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
  );
  await checkScreen(page, 'reservation history');

  await card.click();
  const modal = page.getByRole('dialog', { name: 'Reservation Information' });
  // The answers come with the reservation: shown on the first open, not after a second one.
  await expect(modal.getByText('Consultation Info.')).toBeVisible();
  for (const [question, answer] of answers) {
    await expect(modal.getByText(question)).toBeVisible();
    await expect(modal.getByText(answer)).toBeVisible();
  }
  await expect(modal.getByText('Doctor summary')).toHaveCount(0);
  await checkScreen(page, 'reservation modal');

  // Cancelling asks first: 'Keep it' leaves the reservation as it was.
  await modal.getByRole('button', { name: 'Cancel Reservation' }).click();
  await expect(modal.getByText('Do you really want to cancel this consultation?')).toBeVisible();
  await checkScreen(page, 'cancel confirmation');
  await modal.getByRole('button', { name: 'Keep it' }).click();
  await modal.getByRole('button', { name: 'Cancel Reservation' }).click();
  await modal.getByRole('button', { name: 'Yes, cancel it' }).click();
  await expect(modal).toBeHidden();
  await expect(
    page.getByText(
      `Your consultation on ${chosenTime} is cancelled. A confirmation e-mail is on its way.`,
    ),
  ).toBeVisible();
  await expect
    .poll(async () => (await mailTo(account.email)).map((mail) => mail.subject), {
      message: 'the cancellation e-mail',
    })
    .toContainEqual(expect.stringMatching(/^Cancelled: your virtual consultation on /));
  await expect(page.getByRole('button', { name: /Dr\. Sofia Marquez/ })).toHaveCount(0);
  await expect(page.getByText('You have no upcoming reservations.')).toBeVisible();
  await page.getByText('Consultation record', { exact: true }).click();
  await expect(page.getByText('You have no past consultations yet.')).toBeVisible();
});

/**
 * A past consultation comes only from the clinic command, which writes through the running
 * server on the embedded database (docs/decisions/clinic-channel.md); this journey runs a server
 * of its own so that the command's reservation lands in a database no other journey reads.
 */
test('a past consultation shows the doctor summary and image recorded through the clinic command', async ({
  page,
  request,
}) => {
  // A server start and two clinic runs on a fresh embedded database.
  test.setTimeout(240_000);
  const folder = await mkdtemp(path.join(tmpdir(), 'dental-e2e-clinic-'));
  const dataDir = path.join(folder, 'data');
  const imageFile = path.join(folder, 'intraoral.png');
  await writeFile(
    imageFile,
    await sharp({ create: { width: 120, height: 80, channels: 3, background: '#d8a0a0' } })
      .png()
      .toBuffer(),
  );
  const patient = newAccountDetails();
  const server = await startOwnServer(dataDir);
  try {
    const registered = await request.post(`${server.url}${accountPaths.register}`, {
      data: { email: patient.email, username: patient.username, password: patient.password },
    });
    expect(registered.status(), await registered.text()).toBeLessThan(300);

    const lastWeek = new Date(Date.now() - 7 * 24 * 60 * 60 * 1000);
    lastWeek.setUTCMinutes(0, 0, 0);
    const added = await clinicCommand(
      dataDir,
      'reservations',
      'add',
      '--email',
      patient.email,
      '--doctor',
      'Dr. Amelia Hart',
      '--time',
      lastWeek.toISOString(),
      '--timezone',
      'America/New_York',
    );
    const reservationId = /Added reservation ([0-9a-f-]{36})\./.exec(added)?.[1] ?? '';
    expect(reservationId).not.toBe('');
    await clinicCommand(
      dataDir,
      'summary',
      'record',
      '--reservation',
      reservationId,
      '--condition',
      'Enamel erosion on the upper incisors',
      '--suggestion',
      'Use a fluoride toothpaste and avoid acidic drinks between meals.',
      '--return',
      'In 3 months',
      '--image',
      imageFile,
    );

    await page.goto(`${server.url}/login`);
    await submitLogin(page, patient);
    await expect(page.getByRole('heading', { name: 'You are ready to go!' })).toBeVisible();
    await page.goto(`${server.url}/virtual-consultation/reservation-record`);
    await page.getByText('Consultation record', { exact: true }).click();
    const card = page.getByRole('button', { name: /Dr\. Amelia Hart/ });
    await expect(card).toContainText('America/New_York');
    await card.click();

    const modal = page.getByRole('dialog', { name: 'Reservation Information' });
    await expect(modal.getByText('Doctor summary')).toBeVisible();
    await expect(modal.getByText('Enamel erosion on the upper incisors')).toBeVisible();
    await expect(modal.getByText('Condition', { exact: true })).toBeVisible();
    await expect(modal.getByText('Suggestion', { exact: true })).toBeVisible();
    await expect(modal.getByText('Recommended return visit time')).toBeVisible();
    await expect(modal.getByText('In 3 months')).toBeVisible();
    await expect(modal.getByText('Doctor upload images')).toBeVisible();
    const image = modal.getByRole('img', { name: 'Doctor upload image 1' });
    await expect(image).toBeVisible();
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
      .toBe(120);
    // A past consultation cannot be cancelled any more.
    await expect(modal.getByRole('button', { name: 'Cancel Reservation' })).toHaveCount(0);
    await expectAccessibleAtAllWidths(page, 'reservation modal with a doctor summary');
  } finally {
    await server.stop();
    await rm(folder, { recursive: true, force: true });
  }
});
