import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  request as apiRequestContext,
  type APIRequestContext,
  type Browser,
  type Page,
} from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import sharp from 'sharp';
import { freePort } from '../apps/api/test/support/free-port';
import { expect, registerAccount, submitLogin, test, type TestAccount } from './support/fixtures';
import { checkScreen } from './support/layout-checks';
import { mailTo } from './support/outbox';
import { clinicCommand, startOwnServer, type OwnServer } from './support/own-server';
import { storeXray } from './support/stored-photos';
import { shoot } from './screenshots/shoot';

/**
 * The care team's side (docs/clinic.md), three journeys in order on a server of their own: the first
 * admin is invited from CLINIC_ADMIN_EMAIL when the server starts, once per data folder. The
 * summary needs a consultation in the past, which only the clinic command makes (through the
 * running server, docs/decisions/clinic-channel.md).
 * One browser context per actor; what is not under test (the patient's X-rays) is stored through
 * the API.
 * `CLINIC_SCREENSHOTS=1` also writes the console's screenshots to docs/screenshots/.
 */
test.describe.configure({ mode: 'serial' });

const id = Math.random().toString(36).slice(2, 8);
const admin = {
  email: `admin-${id}@clinic.example`,
  password: `Incisor-${id}-Admin!`,
  name: '',
};
const practitioner = {
  email: `ada-${id}@clinic.example`,
  password: `Canine-${id}-Dr!`,
  name: `Dr. Ada Lovelace ${id}`,
};
const shooting = process.env.CLINIC_SCREENSHOTS === '1';

/** What an authenticator app holding `secret` shows now (the same library as the server). */
const codeNow = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() });

let folder = '';
let dataDir = '';
let port = 0;
let server: OwnServer;
let api: APIRequestContext;
const pages: Page[] = [];
let adminPage: Page;
let practitionerPage: Page;
let patientPage: Page;
let patient: TestAccount;

async function newActor(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ baseURL: server.url, reducedMotion: 'reduce' });
  const page = await context.newPage();
  pages.push(page);
  return page;
}

/** axe and the 360 px check, and the docs' screenshots when asked for. */
async function consoleScreen(page: Page, screen: string, shot?: string) {
  await checkScreen(page, `clinic console: ${screen}`);
  if (shooting && shot !== undefined) await shoot(page, shot);
}

/** The link of the invitation e-mail to `email`, on this server. */
async function invitationLink(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const bodies = (await mailTo(email, dataDir)).map((mail) => mail.text ?? '');
        link = bodies
          .map((body) => /https?:\/\/\S+\/clinic\/invitation\?token=[^\s"'<>]+/.exec(body)?.[0])
          .find(Boolean);
        return link;
      },
      { message: `an invitation e-mail to ${email}`, timeout: 20_000 },
    )
    .toBeDefined();
  const url = new URL(link ?? '');
  return `${url.pathname}${url.search}`;
}

/** Accepts the e-mailed invitation, signs in and turns on two-step verification. Ends on the
 *  console's first screen. */
async function joinPractice(page: Page, who: { email: string; password: string }) {
  await page.goto(await invitationLink(who.email));
  await expect(page.getByRole('heading', { name: 'Join your practice' })).toBeVisible();
  await consoleScreen(page, 'invitation', 'clinic-invitation');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(who.password);
  await page.getByRole('textbox', { name: 'Confirm Password' }).fill(who.password);
  await page.getByRole('button', { name: 'Accept invitation' }).click();

  await expect(page.getByText('Your account is ready')).toBeVisible();
  await expect(page).toHaveURL(/\/clinic\/sign-in$/);
  await consoleScreen(page, 'sign-in', 'clinic-sign-in');
  await submitLogin(page, who);

  await expect(page.getByRole('heading', { name: 'Protect your staff account' })).toBeVisible();
  await consoleScreen(page, 'second-factor enrolment', 'clinic-enrolment');
  const section = page.getByRole('region', { name: 'Two-step verification' });
  await section.getByRole('button', { name: 'Turn on two-step verification' }).click();
  const prompt = page.getByRole('dialog', { name: 'Confirm with your password' });
  await prompt.getByRole('textbox', { name: 'Password' }).fill(who.password);
  await prompt.getByRole('button', { name: 'Continue' }).click();
  const secret = (await section.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
  await section.getByRole('textbox', { name: 'Code' }).fill(codeNow(secret));
  await section.getByRole('button', { name: 'Turn on', exact: true }).click();
  await section.getByRole('button', { name: 'I have saved my recovery codes' }).click();
  await page.getByRole('button', { name: 'Continue to the clinic console' }).click();
  await expect(page.getByRole('heading', { name: 'Today and upcoming' })).toBeVisible();
}

async function openSection(page: Page, name: string, heading: string) {
  await page
    .getByRole('navigation', { name: 'Console' })
    .getByRole('link', { name, exact: true })
    .click();
  await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible();
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  folder = await mkdtemp(path.join(tmpdir(), 'dental-e2e-console-'));
  dataDir = path.join(folder, 'data');
  port = await freePort();
  server = await startOwnServer(dataDir, {
    PORT: String(port),
    CLINIC_ADMIN_EMAIL: admin.email,
    RATE_LIMIT_PER_IP: '100000',
  });
  api = await apiRequestContext.newContext({ baseURL: server.url });
});

test.afterAll(async () => {
  for (const page of pages) await page.context().close();
  await api.dispose();
  await server.stop();
  await rm(folder, { recursive: true, force: true });
});

test('the first admin accepts the e-mailed invitation, enrols a second factor and invites a practitioner', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  adminPage = await newActor(browser);
  const page = adminPage;
  await joinPractice(page, admin);
  await consoleScreen(page, 'today and upcoming', 'clinic-today');

  await openSection(page, 'Staff', 'Staff');
  await page.getByRole('textbox', { name: 'E-mail address' }).fill(practitioner.email);
  await page.getByRole('textbox', { name: 'Name' }).fill(practitioner.name);
  await page.getByRole('combobox', { name: 'Role' }).selectOption('practitioner');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const invited = page.getByRole('listitem', { name: practitioner.name });
  await expect(invited).toContainText('Invited');
  await consoleScreen(page, 'staff', 'clinic-staff');

  await openSection(page, 'Practitioners', 'Practitioners');
  await consoleScreen(page, 'practitioners', 'clinic-practitioners');
  await openSection(page, 'Consultation form', 'Consultation form');
  await consoleScreen(page, 'consultation form', 'clinic-consultation-form');
});

test('the practitioner sets hours, a patient books one, the practitioner writes the summary with an image and the patient reads it', async ({
  browser,
}) => {
  test.setTimeout(360_000);
  practitionerPage = await newActor(browser);
  const page = practitionerPage;
  await joinPractice(page, practitioner);

  await test.step('hours: every day 09:00 to 17:00 UTC, 30-minute slots', async () => {
    await openSection(page, 'Hours', 'Hours');
    await page.getByRole('combobox', { name: 'Time zone' }).selectOption('UTC');
    for (const day of [
      'Monday',
      'Tuesday',
      'Wednesday',
      'Thursday',
      'Friday',
      'Saturday',
      'Sunday',
    ]) {
      await page.getByRole('button', { name: `Add hours on ${day}` }).click();
    }
    await page.getByRole('button', { name: 'Save hours' }).click();
    await expect(page.getByText('Your hours are saved')).toBeVisible();
    await consoleScreen(page, 'hours', 'clinic-hours');
  });

  await test.step('a patient books one of the new slots', async () => {
    patient = await registerAccount(api, { dataDir });
    patientPage = await newActor(browser);
    await patientPage.goto('/login');
    await submitLogin(patientPage, patient);
    await expect(patientPage.getByRole('heading', { name: 'You are ready to go!' })).toBeVisible();
    await patientPage.goto('/virtual-consultation/book');
    await patientPage.getByRole('radio', { name: new RegExp(practitioner.name) }).check();
    await patientPage.getByRole('radiogroup', { name: 'Day' }).getByRole('radio').first().click();
    await patientPage.getByRole('radiogroup', { name: 'Time' }).getByRole('radio').first().click();
    for (const question of await patientPage.getByRole('textbox').all()) {
      await question.fill('A loose filling');
    }
    await patientPage.getByRole('button', { name: 'Confirm Reservation' }).click();
    await expect(patientPage.getByText('Your consultation is booked')).toBeVisible();

    await openSection(page, 'Today', 'Today and upcoming');
    const upcoming = page.getByRole('article', { name: `Consultation with ${patient.username}` });
    await expect(upcoming).toBeVisible();
    await expect(upcoming).toContainText('A loose filling');
  });

  await test.step('a past consultation, entered by the clinic command beside the running server', async () => {
    const lastWeek = new Date(Date.now() - 7 * 24 * 60 * 60 * 1000);
    lastWeek.setUTCHours(10, 0, 0, 0);
    await clinicCommand(
      dataDir,
      'reservations',
      'add',
      '--email',
      patient.email,
      '--doctor',
      practitioner.name,
      '--time',
      lastWeek.toISOString(),
      '--timezone',
      'UTC',
    );
  });

  await test.step('the practitioner writes the summary with an image', async () => {
    await openSection(page, 'History', 'History');
    await consoleScreen(page, 'history', 'clinic-history');
    await page.getByRole('link', { name: `Write the summary for ${patient.username}` }).click();
    await expect(page.getByRole('heading', { name: 'Doctor’s summary' })).toBeVisible();
    await page
      .getByRole('textbox', { name: 'Condition' })
      .fill('Enamel erosion on the upper incisors');
    await page.getByRole('textbox', { name: 'Suggestion' }).fill('Use a fluoride toothpaste.');
    await page.getByRole('textbox', { name: 'Recommended return visit time' }).fill('In 3 months');
    const png = await sharp({
      create: { width: 120, height: 80, channels: 3, background: '#d8a0a0' },
    })
      .png()
      .toBuffer();
    await page
      .getByLabel('Images')
      .setInputFiles({ name: 'intraoral.png', mimeType: 'image/png', buffer: png });
    await expect(page.getByRole('img', { name: 'Image 1' })).toBeVisible();
    await consoleScreen(page, 'doctor’s summary', 'clinic-summary');
    await page.getByRole('button', { name: 'Save summary' }).click();
    await expect(page.getByRole('heading', { name: 'History', level: 1 })).toBeVisible();
    await expect(page.getByText('Enamel erosion on the upper incisors')).toBeVisible();
  });

  await test.step('the patient reads it in their reservation record', async () => {
    await patientPage.goto('/virtual-consultation/reservation-record');
    await patientPage.getByText('Consultation record', { exact: true }).click();
    await patientPage.getByRole('button', { name: new RegExp(practitioner.name) }).click();
    const modal = patientPage.getByRole('dialog', { name: 'Reservation Information' });
    await expect(modal.getByText('Enamel erosion on the upper incisors')).toBeVisible();
    await expect(modal.getByText('In 3 months')).toBeVisible();
    await expect(modal.getByRole('img', { name: 'Doctor upload image 1' })).toBeVisible();
  });
});

test('the patient shares two X-rays: the practitioner sees exactly those, then nothing after revocation', async () => {
  test.setTimeout(180_000);
  const page = practitionerPage;
  for (const note of ['upper', 'lower', 'not shared']) await storeXray(api, patient, note);
  await test.step('the patient shares two of their three X-rays from the Profile', async () => {
    await patientPage.goto('/account');
    const section = patientPage.getByRole('region', { name: 'Share with my dental practice' });
    await section.getByRole('button', { name: 'Choose what to share' }).click();
    await section.getByRole('radio', { name: 'Only the ones I choose' }).check();
    const xrays = section.getByRole('checkbox', { name: /^X-ray of / });
    await expect(xrays).toHaveCount(3);
    await xrays.nth(0).check();
    await xrays.nth(1).check();
    await section.getByRole('button', { name: 'Share', exact: true }).click();
    await expect(section.getByRole('button', { name: 'Stop sharing' })).toBeVisible();
  });

  await openSection(page, 'Patients', 'Patients');
  await consoleScreen(page, 'patients', 'clinic-patients');
  await page.getByRole('link', { name: patient.username }).click();
  await expect(page.getByRole('heading', { name: patient.username, level: 1 })).toBeVisible();
  const views = page.getByRole('button', { name: /^View X-ray of / });
  await expect(views).toHaveCount(2);
  await consoleScreen(page, 'a patient’s shared photos', 'clinic-patient');
  await views.first().click();
  await expect(page.locator('.yarl__root')).toBeVisible();
  await page.keyboard.press('Escape');

  await test.step('the patient stops sharing', async () => {
    const section = patientPage.getByRole('region', { name: 'Share with my dental practice' });
    await section.getByRole('button', { name: 'Stop sharing' }).click();
    const confirm = patientPage.getByRole('dialog', {
      name: 'Stop sharing with your dental practice?',
    });
    await confirm.getByRole('button', { name: 'Stop sharing' }).click();
    await expect(section.getByRole('button', { name: 'Choose what to share' })).toBeVisible();
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Photos and X-rays' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^View X-ray of / })).toHaveCount(0);

  // A patient's account in the console is told where it is, and sees nothing of the clinic.
  await patientPage.goto('/clinic');
  await expect(
    patientPage.getByRole('heading', { name: 'This is the clinic console' }),
  ).toBeVisible();
  await consoleScreen(patientPage, 'a patient account signed in', 'clinic-member-notice');
});
