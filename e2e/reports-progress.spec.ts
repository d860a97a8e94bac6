import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { reportPaths } from '@dental/contracts';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen, expectNoAxeViolations } from './support/layout-checks';
import { downloadedPdfText } from './support/reports';
import { storeImage } from './support/stored-photos';

/** X-rays in the record: enough that writing the report takes seconds, not a blink. */
const xrays = 30;

/** A JPEG of noise, about 1 MB: it compresses as badly as a photo can, so the PDF embeds every
 *  byte of it. */
function noiseJpeg(): Promise<Buffer> {
  const width = 1200;
  const height = 900;
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

// A report that takes a while (docs/product/reports.md): the Reports screen shows it waiting or
// being generated with a progress bar whose value it reads, the member leaves the screen and comes
// back to find it ready, and Home says so until the member downloads it.
test('a report of many X-rays shows its progress, is ready when the member comes back, and Home says so until downloaded', async ({
  page,
  request,
  account,
}) => {
  test.setTimeout(240_000);
  for (let stored = 0; stored < xrays; stored++) {
    await storeImage(request, account, { image: await noiseJpeg(), photoType: 'X-ray' });
  }
  await logIn(page, account);
  await page.goto('/reports');
  await page.getByRole('button', { name: 'Generate' }).click();
  const reports = page.getByRole('region', { name: 'Your reports' });
  // The report is queued for the worker, then written image by image: the bar is on screen the
  // whole time, with its value, and the status says how far it is.
  const bar = reports.getByRole('progressbar', {
    name: /^Treatment history report \d+% generated$/,
  });
  await expect(bar).toBeVisible();
  await expect(bar).toHaveAttribute('aria-valuenow', /^\d+$/);
  await expect(reports.getByText(/^(Waiting|Generating): \d+%$/)).toBeVisible();
  await expectNoAxeViolations(page, 'Reports, a report being generated');

  // The member leaves while it is written, and comes back to it ready.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'You are ready to go!', level: 1 })).toBeVisible();
  await page.goto('/reports');
  await expect(reports.getByText('Ready')).toBeVisible({ timeout: 120_000 });
  await expect(bar).toHaveCount(0);

  // Home tells the member, naming only the kind, and leads to Reports.
  await page.goto('/');
  const notice = page.getByRole('link', { name: /^Your treatment history report is ready\./ });
  await expect(notice).toBeVisible();
  await checkScreen(page, 'Home, a report ready');
  await notice.click();
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  const text = (await downloadedPdfText(page)).join(' ');
  expect(text).toContain('Treatment history report');

  // Downloaded: Home no longer says it.
  const answered = page.waitForResponse((response) =>
    new URL(response.url()).pathname.endsWith(reportPaths.ready),
  );
  await page.goto('/');
  expect((await answered).status()).toBe(200);
  await expect(page.getByRole('heading', { name: 'You are ready to go!', level: 1 })).toBeVisible();
  await expect(notice).toHaveCount(0);
});
