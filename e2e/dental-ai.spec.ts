import type { Locator } from '@playwright/test';
import sharp from 'sharp';
import {
  dentalAiDisclaimer,
  dentalAiWrongKindMessage,
  unreadableImageMessage,
} from '@dental/contracts';
import { closeDialog, expect, logIn, test } from './support/fixtures';
import { atNarrowWidth, checkScreen } from './support/layout-checks';
import {
  chooseRedSquare,
  detectRedSquare,
  imageSide,
  kindChoice,
  openForm,
  picker,
  preview,
  sayItIsAnXray,
  square,
} from './support/red-square';

/** The boxes together cover the red square of the image as it is shown, at any size. */
async function expectBoxesOnTheSquare(image: Locator, boxes: Locator) {
  const shown = await image.boundingBox();
  if (shown === null) throw new Error('the result image is not shown');
  const scale = shown.width / imageSide;
  const drawn = await Promise.all((await boxes.all()).map((box) => box.boundingBox()));
  const edges = drawn.map((box) => {
    if (box === null) throw new Error('a box is not drawn');
    return { left: box.x, top: box.y, right: box.x + box.width, bottom: box.y + box.height };
  });
  const near = (actual: number, expected: number) => {
    // Half of the 3 px line may or may not count as part of a box's extent.
    expect(Math.abs(actual - expected)).toBeLessThanOrEqual(2);
  };
  near(Math.min(...edges.map((edge) => edge.left)), shown.x + square.left * scale);
  near(Math.min(...edges.map((edge) => edge.top)), shown.y + square.top * scale);
  near(Math.max(...edges.map((edge) => edge.right)), shown.x + (square.left + square.side) * scale);
  near(Math.max(...edges.map((edge) => edge.bottom)), shown.y + (square.top + square.side) * scale);
}

test('detects caries, draws the boxes with their legend, and tries another', async ({
  page,
  account,
}) => {
  await logIn(page, account);
  await page.getByRole('link', { name: 'Dental AI' }).click();
  await expect(page).toHaveURL(/\/dental-ai$/);
  await expect(page.getByText('0 of 10 detections used this year (Silver plan)')).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Caries' })).toBeChecked();
  await expect(page.getByRole('button', { name: 'Start Detection' })).toBeDisabled();

  await detectRedSquare(page);
  const image = page.getByRole('img', { name: /^The uploaded image with \d+ areas? marked$/ });
  const boxes = page.locator('svg rect');
  await expect(image).toBeVisible();
  expect(await boxes.count()).toBeGreaterThan(0);
  for (const box of await boxes.all()) {
    await expect(box).toHaveAttribute('stroke', 'red');
    await expect(box).toHaveCSS('stroke-width', '3px');
  }
  await expect(page.getByRole('list', { name: 'Findings' })).toContainText(/^red: \d+ red box/);
  // In plain words: what was looked for, how many areas were marked, what to do next.
  await expect(
    page.getByText('We looked for signs of tooth decay (caries) on your image.'),
  ).toBeVisible();
  await expect(page.getByText('We read your image as an X-ray, as you told us.')).toBeVisible();
  await expect(
    page.getByText(`The model marked ${String(await boxes.count())} areas.`),
  ).toBeVisible();
  await expect(page.getByText(/^What to do next: show this result to your dentist/)).toBeVisible();
  await expect(page.getByText(dentalAiDisclaimer)).toBeVisible();
  // The model's name and version wait under 'About this result'.
  const model = page.getByText(/by the model \S+ \(version \S+\)/);
  await expect(model).toBeHidden();
  await page.getByText('About this result').click();
  await expect(model).toBeVisible();
  await expectBoxesOnTheSquare(image, boxes);
  await atNarrowWidth(page, () => expectBoxesOnTheSquare(image, boxes));

  // The result is stored: a reload shows it again.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Caries Result', level: 1 })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Findings' })).toContainText('red');

  await page.getByRole('button', { name: 'Try Another Detection' }).click();
  await expect(page).toHaveURL(/\/dental-ai$/);
  await expect(picker(page)).toBeVisible();
  await expect(preview(page)).toHaveCount(0);
  await expect(page.getByText('1 of 10 detections used this year (Silver plan)')).toBeVisible();
});

function blackPng(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 64, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
}

test('a result with nothing marked says it rules nothing out; past results open and delete', async ({
  page,
  account,
}) => {
  test.setTimeout(120_000);
  await logIn(page, account);
  await openForm(page);
  await picker(page).setInputFiles({
    name: 'black.png',
    mimeType: 'image/png',
    buffer: await blackPng(),
  });
  await expect(preview(page)).toBeVisible();
  await page.getByRole('button', { name: 'Start Detection' }).click();
  // The first run of a fresh server loads the model: on a busy machine that can take a while.
  await expect(page.getByRole('heading', { name: 'Caries Result', level: 1 })).toBeVisible({
    timeout: 60_000,
  });
  await expect(
    page.getByText(/^Nothing was marked on this image\. This does not rule anything out/),
  ).toBeVisible();
  await expect(page.getByRole('list', { name: 'Findings' })).toHaveCount(0);
  // A grey image is read as an X-ray from its pixels, with no correction to send.
  await expect(page.getByText('We read your image as an X-ray.')).toBeVisible();

  await page.getByRole('button', { name: 'Try Another Detection' }).click();
  await detectRedSquare(page);
  await page.getByRole('button', { name: 'Try Another Detection' }).click();

  const past = page.getByRole('list', { name: 'Past results' });
  await expect(past.getByRole('listitem')).toHaveCount(2);
  // Newest first: the red square, then the black image.
  await expect(past.getByRole('listitem').first()).toContainText(/\d+ areas marked/);
  await expect(past.getByRole('listitem').last()).toContainText('0 areas marked');
  await checkScreen(page, 'Dental AI form with past results');

  await past.getByRole('listitem').last().getByRole('link').click();
  await expect(page.getByText(/^Nothing was marked on this image/)).toBeVisible();
  await page.goBack();

  await past.getByRole('listitem').last().getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete result' });
  await expect(dialog).toContainText('The detection it used stays counted for this year.');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(past.getByRole('listitem')).toHaveCount(1);
  await expect(past.getByRole('listitem')).toContainText(/\d+ areas marked/);
  await expect(page.getByText('2 of 10 detections used this year (Silver plan)')).toBeVisible();
});

// Over 5 MB and no image at all: a real photo that size is made to fit in the browser
// (docs/decisions/phone-photos.md), so this one is refused as unreadable.
test('refuses a file over 5 MB it cannot read in a dialog and keeps nothing', async ({
  page,
  account,
}) => {
  await logIn(page, account);
  await openForm(page);
  await picker(page).setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
  });
  const dialog = page.getByRole('dialog', { name: 'Image not accepted' });
  await expect(dialog).toContainText(unreadableImageMessage);
  await closeDialog(dialog);
  await expect(preview(page)).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Start Detection' })).toBeDisabled();
});

test('a colour photo left as read goes to the shipped photo model, which the result credits', async ({
  page,
  account,
}) => {
  await logIn(page, account);
  await openForm(page);
  await chooseRedSquare(page);
  await expect(kindChoice(page, 'photo')).toBeChecked();
  await page.getByRole('button', { name: 'Start Detection' }).click();
  await expect(page.getByRole('heading', { name: 'Caries Result', level: 1 })).toBeVisible();
  await expect(page.getByText('We read your image as a colour photo.')).toBeVisible();
  await page.getByText('About this result').click();
  await expect(page.getByText(/dental-photo-2class/)).toBeVisible();
  await expect(page.getByText(/CAV-TEE Research Team/)).toBeVisible();
});

test('wisdom teeth on a colour photo says so instead of running, until the member says X-ray', async ({
  page,
  account,
}) => {
  await logIn(page, account);
  await openForm(page);
  await page.getByRole('radio', { name: 'Wisdom Teeth (Panel X-Ray Only)' }).check();
  await chooseRedSquare(page);
  await expect(kindChoice(page, 'photo')).toBeChecked();
  await expect(page.getByRole('alert')).toHaveText(dentalAiWrongKindMessage('wisdom_teeth'));
  const start = page.getByRole('button', { name: 'Start Detection' });
  await expect(start).toBeDisabled();

  await kindChoice(page, 'xray').check();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(start).toBeEnabled();
});

test('every Dental AI screen is accessible and fits 360 px', async ({ page, account }) => {
  // axe runs twice on each of five screens: slow on a shared two-core machine.
  test.setTimeout(300_000);
  await logIn(page, account);
  await openForm(page);
  await checkScreen(page, 'Dental AI form');

  await picker(page).setInputFiles({
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
  });
  const refusal = page.getByRole('dialog', { name: 'Image not accepted' });
  await expect(refusal).toBeVisible();
  await checkScreen(page, 'Dental AI oversize dialog');
  await closeDialog(refusal);

  await chooseRedSquare(page);
  await checkScreen(page, 'Dental AI form with a preview');

  await page.getByRole('radio', { name: 'Wisdom Teeth (Panel X-Ray Only)' }).check();
  await expect(page.getByRole('alert')).toHaveText(dentalAiWrongKindMessage('wisdom_teeth'));
  await checkScreen(page, 'Dental AI form refusing wisdom teeth on a photo');

  await page.getByRole('radio', { name: 'Caries' }).check();
  await sayItIsAnXray(page);
  await page.getByRole('button', { name: 'Start Detection' }).click();
  await expect(page.getByRole('heading', { name: 'Caries Result', level: 1 })).toBeVisible();
  await expect(page.locator('svg rect').first()).toBeVisible();
  await checkScreen(page, 'Dental AI result');
});
