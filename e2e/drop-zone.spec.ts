import sharp from 'sharp';
import { oralPhotoPaths, unreadableImageMessage } from '@dental/contracts';
import type { Locator } from '@playwright/test';
import { openAddScreen } from './support/add-screen';
import { localDate } from './support/dates';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';
import { pdfOf } from './support/pdf-file';

interface DroppedFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** Drops a file on the zone as a browser does when a file is dragged from the desktop. */
async function dropOn(zone: Locator, file: DroppedFile) {
  const transfer = await zone.page().evaluateHandle(
    ({ name, mimeType, base64 }) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], name, { type: mimeType }));
      return data;
    },
    { name: file.name, mimeType: file.mimeType, base64: file.buffer.toString('base64') },
  );
  await zone.dispatchEvent('dragenter', { dataTransfer: transfer });
  await zone.dispatchEvent('drop', { dataTransfer: transfer });
}

/** A noisy PNG of about 3 MB, under the 5 MB rule. */
function largePng(): Promise<Buffer> {
  const width = 1000;
  const height = 1000;
  const pixels = Buffer.alloc(width * height * 3);
  for (let at = 0; at < pixels.length; at += 1) pixels[at] = (at * 7919 + (at >> 5) * 31) % 251;
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

test('drop zones: drop, Choose file, the rules, progress; the disclaimer once; a PDF shown in the app', async ({
  page,
  account,
}) => {
  test.setTimeout(420_000);
  const today = localDate();
  await logIn(page, account);
  await page.goto('/oral-photo');
  await openAddScreen(page, /\/oral-photo\/add$/);

  const zone = page.getByTestId('drop-zone');
  await expect(zone).toContainText('JPEG, PNG, WebP or HEIC images up to 5 MB');
  await checkScreen(page, 'add photo drop zone');
  // A file over 5 MB is made to fit in the browser (docs/decisions/phone-photos.md); one that is
  // no image at all is refused before anything is sent.
  await dropOn(zone, {
    name: 'huge.png',
    mimeType: 'image/png',
    buffer: Buffer.alloc(5 * 1024 * 1024 + 1),
  });
  await expect(page.getByRole('alert')).toHaveText(unreadableImageMessage);

  // Choose file opens the browser's chooser.
  const choosing = page.waitForEvent('filechooser');
  await zone.getByRole('button', { name: 'Choose file' }).click();
  await (
    await choosing
  ).setFiles({ name: 'large.png', mimeType: 'image/png', buffer: await largePng() });
  await expect(page.getByRole('img', { name: 'Preview of the chosen image' })).toBeVisible();
  // The upload is held on its way until the progress has been seen.
  let release: (() => void) | undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**${oralPhotoPaths.list}`, async (route) => {
    if (route.request().method() === 'POST') await held;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeAttached();
  await expect(page.getByRole('status').filter({ hasText: /^Uploading… \d+%$/ })).toBeVisible();
  release?.();
  await expect(page).toHaveURL(/\/oral-photo$/);

  // The disclaimer was accepted once for this member: the next add goes straight to the form.
  await page.getByRole('link', { name: '+Add' }).click();
  await expect(page.getByTestId('drop-zone')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Disclaimer' })).toHaveCount(0);

  // A record's files: a PDF dropped, then shown in the app's viewer.
  await page.goto('/medical-records/add');
  const recordZone = page.getByTestId('drop-zone');
  await expect(recordZone).toContainText('or PDF documents up to 10 MB');
  await expect(page.getByRole('dialog', { name: 'Disclaimer' })).toHaveCount(0);
  await page.getByLabel('Title').fill('Insurance claim');
  await dropOn(recordZone, {
    name: 'claim.pdf',
    mimeType: 'application/pdf',
    buffer: pdfOf(),
  });
  await expect(page.getByRole('list', { name: 'Chosen files' })).toContainText('claim.pdf');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/medical-records$/);
  await page.getByRole('button', { name: `Insurance claim ${today}` }).click();
  await page.getByRole('button', { name: 'Open claim.pdf' }).click();
  const viewer = page.getByRole('dialog', { name: 'Lightbox' });
  await expect(viewer.getByRole('img', { name: 'Page 1 of 1' })).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'Download' })).toBeVisible();
  await checkScreen(page, 'PDF preview');
});
