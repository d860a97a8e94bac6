import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { chromium, type Browser, type LaunchOptions, type Page } from '@playwright/test';
import { captureViews, captureViewWords } from '@dental/contracts';
import { photoRefusalMessages } from '@dental/contracts/photo-quality';
import { hasPhotoDataset, heldOutPhotoPath } from './support/dental-ai-record';
import { writeFakeCameraVideo } from './support/fake-camera';
import { expect, logIn, test, type TestAccount } from './support/fixtures';
import { checkScreen, phoneViewport } from './support/layout-checks';
import { shoot } from './screenshots/shoot';

// 'Take photos' (docs/product/records.md#guided-capture) with Chromium's fake camera playing a
// CAV-TEE photo: the blurred copy is refused with the reason, the sharp one is accepted for each
// of the five views, and the set is one entry of the photo list. Each camera needs its own
// browser, since the video is a launch argument.

test.skip(!hasPhotoDataset, 'The CAV-TEE photo data set is not beside the repository.');

const today = () => new Date().toLocaleDateString('en-CA');

/** A phone-sized, touch page of a Chromium (launched as the project launches it) whose camera
 *  plays `video`, signed in. */
async function phoneWithCamera(
  video: string,
  account: TestAccount,
  { baseURL, launchOptions }: { baseURL: string; launchOptions: LaunchOptions | undefined },
) {
  const browser = await chromium.launch({
    ...launchOptions,
    args: [
      ...(launchOptions?.args ?? []),
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ],
  });
  const context = await browser.newContext({ baseURL, viewport: phoneViewport, hasTouch: true });
  const page = await context.newPage();
  await logIn(page, account);
  return { browser, page };
}

/** Waits for the live camera, shown once the video plays. */
async function cameraLive(page: Page) {
  await expect(page.getByRole('button', { name: 'Take photo', exact: true })).toBeEnabled({
    timeout: 20_000,
  });
}

test.describe('on a phone with touch', () => {
  // The camera journey's own browsers are phone-sized and touch too (phoneWithCamera).
  test.use({ viewport: phoneViewport, hasTouch: true });

  test('five views are taken with the camera, a blurred one refused, and the set listed once', async ({
    account,
  }, testInfo) => {
    test.setTimeout(240_000);
    const project = {
      baseURL: String(testInfo.project.use.baseURL),
      launchOptions: testInfo.project.use.launchOptions,
    };
    const photo = await readFile(heldOutPhotoPath);
    const sharpVideo = testInfo.outputPath('sharp.y4m');
    const blurredVideo = testInfo.outputPath('blurred.y4m');
    await writeFakeCameraVideo(photo, sharpVideo);
    await writeFakeCameraVideo(photo, blurredVideo, 4);
    const browsers: Browser[] = [];
    try {
      const camera = await phoneWithCamera(sharpVideo, account, project);
      browsers.push(camera.browser);
      const { page } = camera;
      await page.goto('/oral-photo');
      await page.getByRole('link', { name: 'Take photos' }).tap();
      await expect(page).toHaveURL(/\/oral-photo\/capture$/);
      const disclaimer = page.getByRole('dialog', { name: 'Disclaimer' });
      await disclaimer.getByRole('button', { name: 'I accept' }).tap();
      await cameraLive(page);
      await checkScreen(page, 'Take photos');
      await shoot(page, 'guided-capture');
      for (const [at, view] of captureViews.entries()) {
        await expect(
          page.getByRole('heading', {
            name: `Photo ${String(at + 1)} of 5: ${captureViewWords[view].name}`,
          }),
        ).toBeVisible();
        await page.getByRole('button', { name: 'Take photo', exact: true }).tap();
        if (at + 1 < captureViews.length) await cameraLive(page);
      }
      await expect(page).toHaveURL(/\/oral-photo\/sets\/[0-9a-f-]+$/);
      await expect(page.getByRole('heading', { name: `Photos of ${today()}` })).toBeVisible();
      for (const view of captureViews) {
        await expect(
          page.getByRole('heading', { name: captureViewWords[view].name, level: 2 }),
        ).toBeVisible();
      }
      await expect(
        page.getByRole('button', { name: /^Check for caries: Front, Photo of/ }),
      ).toBeVisible();
      await checkScreen(page, 'A set of photos');
      await page.screenshot({ path: testInfo.outputPath('set-360.png'), fullPage: true });

      await page.goto('/oral-photo');
      const entry = page.getByRole('link', { name: /Set of photos, 5 views/ });
      await expect(entry).toHaveCount(1);
      await expect(entry.locator('img')).toHaveCount(5);
      // The set's photos are not listed one by one beside it.
      await expect(page.getByRole('button', { name: `${today()} Photo` })).toHaveCount(0);
      await page.screenshot({ path: testInfo.outputPath('list-360.png') });

      // A second set compares with the first, view by view.
      await page.getByRole('link', { name: 'Take photos' }).tap();
      for (const at of captureViews.keys()) {
        await cameraLive(page);
        await expect(
          page.getByRole('heading', { name: new RegExp(`^Photo ${String(at + 1)} of 5`) }),
        ).toBeVisible();
        await page.getByRole('button', { name: 'Take photo', exact: true }).tap();
      }
      await expect(page).toHaveURL(/\/oral-photo\/sets\/[0-9a-f-]+$/);
      await page
        .getByRole('button', { name: `Compare Left side, Photo of ${today()} with ${today()}` })
        .tap();
      const comparison = page.getByRole('dialog', { name: 'Compare photos' });
      await expect(comparison.getByRole('figure')).toHaveCount(2);
      await page.goto('/oral-photo');
      await expect(page.getByRole('link', { name: /Set of photos, 5 views/ })).toHaveCount(2);

      const blurred = await phoneWithCamera(blurredVideo, account, project);
      browsers.push(blurred.browser);
      await blurred.page.goto('/oral-photo/capture');
      await cameraLive(blurred.page);
      await blurred.page.getByRole('button', { name: 'Take photo', exact: true }).tap();
      await expect(blurred.page.getByRole('alert')).toHaveText(photoRefusalMessages.blurred);
      // Asked again for the same view.
      await expect(
        blurred.page.getByRole('heading', { name: 'Photo 1 of 5: Front' }),
      ).toBeVisible();
      await cameraLive(blurred.page);
      await blurred.page.screenshot({ path: testInfo.outputPath('refused-360.png') });
    } finally {
      await Promise.all(browsers.map((browser) => browser.close()));
    }
  });

  test('without a camera each view is a still photo from the phone, checked the same way', async ({
    page,
    account,
  }) => {
    const photo = await readFile(heldOutPhotoPath);
    await logIn(page, account);
    await page.goto('/oral-photo/capture');
    await page
      .getByRole('dialog', { name: 'Disclaimer' })
      .getByRole('button', { name: 'I accept' })
      .tap();
    await expect(
      page.getByText('The camera cannot be shown here.', { exact: false }),
    ).toBeVisible();
    const still = page.getByLabel('Take photo: Front');
    await expect(still).toHaveAttribute('capture', 'environment');
    await still.setInputFiles({
      name: 'blurred.jpg',
      mimeType: 'image/jpeg',
      buffer: await sharp(photo).resize(640, 480).blur(4).jpeg().toBuffer(),
    });
    await expect(page.getByRole('alert')).toHaveText(photoRefusalMessages.blurred);
    await still.setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: photo });
    await expect(page.getByRole('heading', { name: 'Photo 2 of 5: Upper teeth' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);

    // The next view is stored but its answer never arrives; taken again, the stored one counts.
    await page.route(
      '**/api/oral-photo/',
      async (route) => {
        if (route.request().method() !== 'POST') return route.fallback();
        await route.fetch();
        await route.abort('connectionreset');
      },
      { times: 1 },
    );
    const upper = page.getByLabel('Take photo: Upper teeth');
    await upper.setInputFiles({ name: 'upper.jpg', mimeType: 'image/jpeg', buffer: photo });
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Photo 2 of 5: Upper teeth' })).toBeVisible();
    await upper.setInputFiles({ name: 'upper.jpg', mimeType: 'image/jpeg', buffer: photo });
    await expect(page.getByRole('heading', { name: 'Photo 3 of 5: Lower teeth' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });
});
