import sharp from 'sharp';
import { logIn, test } from '../support/fixtures';
import { shoot } from './shoot';

/** A photo with one pure red square, which the e2e server's fixture caries (X-ray) model marks. */
function photoWithOneFinding(): Promise<Buffer> {
  return sharp({ create: { width: 640, height: 640, channels: 3, background: '#f4efe6' } })
    .composite([
      {
        input: { create: { width: 160, height: 160, channels: 3, background: '#ff0000' } },
        left: 160,
        top: 160,
      },
    ])
    .png()
    .toBuffer();
}

test('membership, Dental AI and account security screens', async ({ page, account }) => {
  test.setTimeout(180_000);
  await logIn(page, account);

  await page.goto('/membership');
  await page.getByRole('button', { name: 'Choose Plan Gold' }).waitFor();
  await shoot(page, 'membership-plans');

  await page.goto('/dental-ai');
  await page.getByLabel('Step 2: Upload an image').setInputFiles({
    name: 'tooth.png',
    mimeType: 'image/png',
    buffer: await photoWithOneFinding(),
  });
  // The form with the kind read from the image's colours, then the member's correction, which
  // sends the image to the e2e server's fixture model (in the X-ray slot).
  await page.getByRole('radio', { name: 'This is a photo' }).waitFor();
  await shoot(page, 'dental-ai-form', page.getByRole('button', { name: 'Start Detection' }));
  await page.getByRole('radio', { name: 'This is an X-ray' }).check();
  await page.getByRole('button', { name: 'Start Detection' }).click();
  // The result itself is shot on real images (dental-ai-real-images.screens.ts); this one fills
  // the past results.
  await page.getByRole('heading', { name: 'Caries Result', level: 1 }).waitFor();

  await page.goto('/dental-ai');
  await shoot(
    page,
    'dental-ai-past-results',
    page.getByRole('heading', { name: 'Your past results' }),
  );

  await page.goto('/account/security');
  await page.getByRole('button', { name: 'Change password' }).waitFor();
  await shoot(page, 'account-security');
});
