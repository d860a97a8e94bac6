import sharp from 'sharp';
import { accountPaths, oralPhotoPaths, tokenPair } from '@dental/contracts';
import type { Page } from '@playwright/test';
import { openAddScreen } from './support/add-screen';
import { localDate } from './support/dates';
import { expect, logIn, test } from './support/fixtures';
import { atNarrowWidth, checkScreen } from './support/layout-checks';

function pngOf(blue: number): Promise<Buffer> {
  return sharp({
    create: { width: 160, height: 120, channels: 3, background: { r: 90, g: 140, b: blue } },
  })
    .png()
    .toBuffer();
}

const addPhotoUrl = /\/oral-photo\/add$/;
const tooth16 = 'Tooth 16 (upper right first molar)';

/** Adds an X-ray through the form: the image, its date, a note and the teeth picked on the chart
 *  (by click, or by keyboard with Space). The disclaimer is asked before the first add only. */
async function addXRay(
  page: Page,
  photo: { date: string; note: string; blue: number; click: string[]; keyboard?: string[] },
  first = false,
) {
  await page.goto('/oral-photo');
  if (first) {
    await openAddScreen(page, addPhotoUrl);
  } else {
    await page.getByRole('link', { name: '+Add' }).click();
    await expect(page).toHaveURL(addPhotoUrl);
  }
  await page.getByLabel('Image').setInputFiles({
    name: 'x-ray.png',
    mimeType: 'image/png',
    buffer: await pngOf(photo.blue),
  });
  await page.getByLabel('Shoot date').fill(photo.date);
  await page.getByLabel('Note').fill(photo.note);
  for (const name of photo.click) {
    const tooth = page.getByRole('button', { name, exact: true });
    await tooth.click();
    await expect(tooth).toHaveAttribute('aria-pressed', 'true');
  }
  for (const name of photo.keyboard ?? []) {
    const tooth = page.getByRole('button', { name, exact: true });
    await tooth.focus();
    await page.keyboard.press('Space');
    await expect(tooth).toHaveAttribute('aria-pressed', 'true');
  }
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/oral-photo$/);
}

test('tooth tags: two X-rays of tooth 16 tagged on the chart, then its timeline, oldest first', async ({
  page,
  account,
  request,
}) => {
  test.setTimeout(240_000);
  const today = localDate();
  const lastWeek = localDate(new Date(Date.now() - 7 * 24 * 60 * 60 * 1000));
  await logIn(page, account);

  // The newer X-ray first, so that the timeline's order comes from the dates, not from the adding.
  await addXRay(
    page,
    {
      date: today,
      note: 'After the crown',
      blue: 200,
      click: [tooth16, 'Tooth 17 (upper right second molar)'],
    },
    true,
  );
  // The older one on a phone, picked by keyboard.
  await atNarrowWidth(page, async () => {
    await addXRay(page, {
      date: lastWeek,
      note: 'Before the crown',
      blue: 60,
      click: [],
      keyboard: [tooth16],
    });
  });
  // A third X-ray of another tooth, stored through the API, stays off tooth 16's timeline.
  const login = await request.post(accountPaths.login, {
    data: { login_type: 'native', email: account.email, password: account.password },
  });
  const { access } = tokenPair.parse(await login.json());
  const other = await request.post(oralPhotoPaths.list, {
    headers: { Authorization: `Bearer ${access}` },
    data: {
      shoot_date: lastWeek,
      photo_type: 'Photo',
      note: 'Gum line',
      teeth: [26],
      image_link: `data:image/png;base64,${(await pngOf(120)).toString('base64')}`,
    },
  });
  expect(other.status(), await other.text()).toBe(201);

  // The picker on the edit form shows the stored teeth; the screen passes axe at both widths.
  await page.getByRole('button', { name: `${today} X-ray` }).click();
  await expect(page.getByRole('link', { name: `${tooth16} timeline` })).toBeVisible();
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: 'Edit Photo' })).toBeVisible();
  await expect(page.getByRole('button', { name: tooth16, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(page.getByText('Picked: 16, 17.')).toBeVisible();
  await checkScreen(page, 'edit photo with the tooth picker');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/oral-photo$/);

  // From the photo's tooth chip to the timeline.
  await page.getByRole('button', { name: `${today} X-ray` }).click();
  await page.getByRole('link', { name: `${tooth16} timeline` }).click();
  await expect(page).toHaveURL(/\/oral-photo\/teeth\/16$/);
  await expect(
    page.getByRole('heading', { name: 'Tooth 16: upper right first molar', level: 1 }),
  ).toBeVisible();
  const entries = page.getByRole('list').filter({ hasText: 'the crown' }).getByRole('listitem');
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0)).toContainText(lastWeek);
  await expect(entries.nth(0)).toContainText('Before the crown');
  await expect(entries.nth(1)).toContainText(today);
  await expect(entries.nth(1)).toContainText('After the crown');
  await expect(page.getByText('Gum line')).toHaveCount(0);
  await expect(page.getByRole('link', { name: `${tooth16}, 2 images` })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await checkScreen(page, 'tooth 16 timeline');

  // The viewer pages through the timeline in the same order.
  await page.getByRole('button', { name: `View X-ray of ${lastWeek} full screen` }).click();
  const viewer = page.getByRole('dialog', { name: 'Lightbox' });
  await expect(viewer.getByText(`X-ray of ${lastWeek}`)).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(viewer.getByText(`X-ray of ${today}`)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  // The chart screen, reached from the list, on a phone: counts per tooth, and another tooth.
  await atNarrowWidth(page, async () => {
    await page.goto('/oral-photo');
    await page.getByRole('link', { name: 'By tooth' }).click();
    await expect(page).toHaveURL(/\/oral-photo\/teeth$/);
    await expect(page.getByRole('heading', { name: 'Photos by tooth', level: 1 })).toBeVisible();
    await expect(
      page.getByRole('link', { name: 'Tooth 17 (upper right second molar), 1 image' }),
    ).toBeVisible();
    await page.getByRole('link', { name: 'Tooth 26 (upper left first molar), 1 image' }).click();
    await expect(page).toHaveURL(/\/oral-photo\/teeth\/26$/);
    await expect(page.getByText('Gum line')).toBeVisible();
    await expect(page.getByText('the crown')).toHaveCount(0);
    await page.getByRole('link', { name: `${tooth16}, 2 images` }).click();
    await expect(entries).toHaveCount(2);
    await expect(entries.nth(0)).toContainText(lastWeek);
  });
  await checkScreen(page, 'tooth chart');
});
