import { accountPaths, appointmentPaths, homePaths, tokenPair } from '@dental/contracts';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, logIn, test, type TestAccount } from './support/fixtures';
import { e2eDataDir } from './support/data-dir';
import { checkScreen, phoneViewport } from './support/layout-checks';
import { clinicCommand } from './support/own-server';
import { storeXray } from './support/stored-photos';
import { shoot } from './screenshots/shoot';

const day = 24 * 60 * 60 * 1000;
/** One of the three doctors a fresh installation is seeded with. */
const doctor = 'Dr. Amelia Hart';

/** A consultation with the seeded doctor at `time`, entered as a clinic does by phone. */
async function reservationAt(account: TestAccount, time: Date): Promise<string> {
  const added = await clinicCommand(
    e2eDataDir(),
    'reservations',
    'add',
    '--email',
    account.email,
    '--doctor',
    doctor,
    '--time',
    time.toISOString(),
    '--timezone',
    'UTC',
  );
  const id = /Added reservation ([0-9a-f-]{36})\./.exec(added)?.[1];
  expect(id, added).toBeDefined();
  return id ?? '';
}

/** A whole UTC hour `days` from now, moved by a few random hours so that the two widths' runs
 *  never book the doctor's same slot. */
function hourFromNow(days: number): Date {
  const time = new Date(Date.now() + days * day + Math.floor(Math.random() * 200) * 3_600_000);
  time.setUTCMinutes(0, 0, 0);
  return time;
}

async function storeAppointment(request: APIRequestContext, account: TestAccount, when: Date) {
  const login = await request.post(accountPaths.login, {
    data: { login_type: 'native', email: account.email, password: account.password },
  });
  const { access } = tokenPair.parse(await login.json());
  const response = await request.post(appointmentPaths.list, {
    headers: { authorization: `Bearer ${access}` },
    data: { appointment_date: when.toISOString(), note: 'Check-up' },
  });
  expect(response.status(), await response.text()).toBe(201);
}

/** Signs in and waits for Home's answer of what is next, so its absence means something. */
async function openHome(page: Page, account: TestAccount) {
  const answered = page.waitForResponse((response) => response.url().endsWith(homePaths.upNext));
  await logIn(page, account);
  expect((await answered).status()).toBe(200);
}

const strip = (page: Page) => page.getByRole('region', { name: 'What’s next' });

// Home's strip of what is next (docs/decisions/home-up-next.md) and the knowledge search
// (docs/product/knowledge.md#search), at both widths with touch.
test.describe('on a phone with touch', () => {
  test.use({ viewport: phoneViewport, hasTouch: true });

  test('a new member with nothing ahead sees no strip, only the topics', async ({
    page,
    account,
  }) => {
    await openHome(page, account);
    await expect(page.getByRole('list', { name: 'Topics' })).toBeVisible();
    await expect(strip(page)).toHaveCount(0);
    await checkScreen(page, 'Home of a new member');
  });

  test('the strip shows what is next, each one tap away', async ({ page, account, request }) => {
    test.setTimeout(180_000);
    const appointment = new Date(Date.now() + 5 * day);
    appointment.setHours(9, 30, 0, 0);
    await storeAppointment(request, account, appointment);
    await reservationAt(account, hourFromNow(10));
    const past = await reservationAt(account, hourFromNow(-20));
    await clinicCommand(
      e2eDataDir(),
      'summary',
      'record',
      '--reservation',
      past,
      '--condition',
      'Mild gingivitis',
      '--suggestion',
      'Floss once a day.',
      '--return',
      'In 6 months',
    );
    await storeXray(request, account, '', '2026-01-15');

    await openHome(page, account);
    const items = strip(page).getByRole('link');
    await expect(items).toHaveCount(4);
    const next = items.filter({ hasText: 'Next appointment' });
    await expect(next).toContainText(/\d{2}-\d{2}-\d{4} \w{3} 09:30 AM/);
    await expect(items.filter({ hasText: 'Next consultation' })).toContainText(`with ${doctor}`);
    await expect(items.filter({ hasText: 'New doctor’s summary' })).toContainText(`From ${doctor}`);
    await expect(items.filter({ hasText: 'Recent uploads' })).toContainText(
      '1 added in the last 14 days; latest: X-ray of 2026-01-15',
    );
    // Above SPEC's cards, which stay as they were.
    const stripBox = await strip(page).boundingBox();
    const topicsBox = await page.getByRole('list', { name: 'Topics' }).boundingBox();
    expect(stripBox?.y ?? Infinity).toBeLessThan(topicsBox?.y ?? 0);
    await checkScreen(page, 'Home with its strip');
    await shoot(page, 'home-up-next');

    await next.tap();
    await expect(page).toHaveURL(/\/appointments$/);
    await expect(page.getByText('09:30 AM').first()).toBeVisible();
    await page.goBack();

    await items.filter({ hasText: 'Next consultation' }).tap();
    await expect(page).toHaveURL(/\/virtual-consultation\/reservation-record$/);
    await expect(
      page.getByRole('list', { name: 'Current Reservation' }).getByRole('button'),
    ).toContainText(doctor);
    await page.goBack();

    await items.filter({ hasText: 'New doctor’s summary' }).tap();
    const modal = page.getByRole('dialog', { name: 'Reservation Information' });
    await expect(modal.getByText('Doctor summary')).toBeVisible();
    await expect(modal.getByText('Mild gingivitis')).toBeVisible();
    await checkScreen(page, 'the summary opened from Home');
    await modal.getByRole('button', { name: 'Close' }).tap();
    await expect(modal).toBeHidden();
    await page.goBack();

    await items.filter({ hasText: 'Recent uploads' }).tap();
    await expect(page).toHaveURL(/\/oral-photo\/[0-9a-f-]{36}\/edit$/);
    await expect(page.getByRole('img', { name: 'The stored image' })).toBeVisible();
  });

  test('searches the knowledge articles by title and text, with the words marked', async ({
    page,
    account,
  }) => {
    await logIn(page, account);
    await page.getByRole('link', { name: 'Dental & Tx Knowledgement', exact: true }).tap();
    const search = page.getByRole('searchbox', { name: 'Search the articles' });
    const articles = page.getByRole('list', { name: 'Articles' }).getByRole('listitem');
    const wisdom = articles.filter({
      has: page.getByRole('heading', { name: /^Wisdom Teeth/, level: 2 }),
    });
    await expect(articles).toHaveCount(12);

    // Results follow the typing; every word must be there, in the title or the text.
    await search.fill('floss gums');
    await expect(page.getByRole('status').filter({ hasText: /match “floss gums”/ })).toBeVisible();
    await expect(articles.first()).toBeVisible();
    const count = await articles.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(12);
    const flossing = articles.filter({ hasText: 'Flossing' });
    await expect(flossing.locator('mark').first()).toBeVisible();
    await expect(
      flossing
        .locator('mark')
        .filter({ hasText: /^floss$/i })
        .first(),
    ).toBeVisible();
    await checkScreen(page, 'knowledge search results');
    await shoot(page, 'knowledge-search');

    // The title alone can match.
    await search.fill('wisdom');
    await expect(wisdom).toBeVisible();

    await search.fill('floss zzzqx');
    await expect(page.getByRole('status')).toHaveText(
      'No articles match “floss zzzqx”. Try fewer or other words.',
    );
    await expect(articles).toHaveCount(0);
    await checkScreen(page, 'knowledge search without results');
    await shoot(page, 'knowledge-search-empty');

    // An article opened from the results comes back to them.
    await search.fill('wisdom');
    await wisdom.getByRole('heading').getByRole('link').tap();
    await expect(page.getByRole('heading', { name: /Wisdom Teeth/, level: 1 })).toBeVisible();
    await page.goBack();
    await expect(search).toHaveValue('wisdom');
    await expect(wisdom).toBeVisible();

    await search.fill('');
    await expect(articles).toHaveCount(12);
  });
});
