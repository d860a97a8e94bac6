import type { Page } from '@playwright/test';
import { measuredSentences, tierSentence } from '@dental/contracts';
import {
  checkForCaries,
  hasPhotoDataset,
  panoramicWithRedSquare,
  recordedFigures,
  storeHeldOutPhoto,
} from './support/dental-ai-record';
import { expect, logIn, test } from './support/fixtures';
import { localDate } from './support/dates';
import { atDesktopWidth, checkScreen, phoneViewport } from './support/layout-checks';
import { storeImage } from './support/stored-photos';

// Dental AI inside the record (docs/product/dental-ai.md#on-a-stored-image): 'Check for caries'
// on a stored X-ray or photo, with no second upload; the result links back to the photo and the
// photo lists its results; the result zooms in the viewer; each box says how sure the model is,
// and 'About this result' what the model is measured to find.

/** The width the viewer shows its detection slide at, boxes and image together. */
const shownWidth = async (page: Page) =>
  (
    await page
      .getByRole('dialog', { name: 'Lightbox' })
      .locator('.yarl__slide_current img')
      .boundingBox()
  )?.width ?? 0;

test.describe('on a phone with touch', () => {
  test.use({ viewport: phoneViewport, hasTouch: true });

  test('checks a stored X-ray for caries, zooms the result, and links both ways', async ({
    page,
    account,
    request,
  }) => {
    test.setTimeout(180_000);
    const day = localDate();
    await storeImage(request, account, {
      image: await panoramicWithRedSquare(),
      photoType: 'X-ray',
      shootDate: day,
    });
    await logIn(page, account);
    await page.goto('/oral-photo');
    await page.getByRole('button', { name: `${day} X-ray` }).tap();
    const section = page.getByRole('region', { name: 'Dental AI' });
    await expect(section.getByText('Not checked by Dental AI yet.')).toBeVisible();
    await checkScreen(page, 'photo card with Dental AI');
    await section.getByRole('button', { name: `Check for caries: X-ray of ${day}` }).tap();

    // The result, with no upload: the stored X-ray's boxes, and a link back to it.
    await expect(page).toHaveURL(/\/dental-ai\/result\/[0-9a-f-]+$/);
    await expect(page.getByRole('heading', { name: 'Caries Result', level: 1 })).toBeVisible();
    await expect(page.getByText('We read your image as an X-ray, as you told us.')).toBeVisible();
    const image = page.getByRole('img', { name: /^The stored image with \d+ areas? marked$/ });
    await expect(image).toBeVisible();
    expect(await page.locator('main svg rect').count()).toBeGreaterThan(0);
    const onPage = (await image.boundingBox())?.width ?? 0;
    expect(onPage).toBeLessThan(340);
    await checkScreen(page, 'result on a stored X-ray');

    // The result zooms in the viewer, boxes and all.
    await page.getByRole('button', { name: 'Zoom', exact: true }).tap();
    const viewer = page.getByRole('dialog', { name: 'Lightbox' });
    await expect(viewer).toBeVisible();
    await expect(viewer.locator('.yarl__slide_current svg rect').first()).toBeVisible();
    const fitted = await shownWidth(page);
    await viewer.getByRole('button', { name: 'Zoom in' }).tap();
    await viewer.getByRole('button', { name: 'Zoom in' }).tap();
    await expect.poll(() => shownWidth(page)).toBeGreaterThan(fitted * 1.5);
    await expect(viewer.getByRole('button', { name: 'Zoom out' })).toBeEnabled();
    await checkScreen(page, 'result zoomed in the viewer');
    await viewer.getByRole('button', { name: 'Close' }).tap();
    await expect(viewer).toBeHidden();

    // Back to the X-ray: its card opens and lists the result.
    await page.getByRole('link', { name: `X-ray of ${day}` }).tap();
    await expect(page).toHaveURL(/\/oral-photo$/);
    const results = page.getByRole('region', { name: 'Dental AI' });
    await expect(results.getByRole('link', { name: /^Caries Result of / })).toBeVisible();
    await checkScreen(page, 'photo card with its result');
    await results.getByRole('link', { name: /^Caries Result of / }).tap();
    await expect(page.getByRole('heading', { name: 'Caries Result', level: 1 })).toBeVisible();

    // The run was one of the plan's uses, as an upload is.
    await page.goto('/dental-ai');
    await expect(page.getByText('1 of 10 detections used this year (Silver plan)')).toBeVisible();
  });

  test('says how sure the shipped photo model is of each box, and what it is measured to find', async ({
    page,
    account,
    request,
  }) => {
    test.skip(!hasPhotoDataset, 'the cavity photo data set is not on this machine');
    test.setTimeout(180_000);
    const photo = await storeHeldOutPhoto(request, account);
    await logIn(page, account);
    await checkForCaries(page, photo);
    await expect(
      page.getByText('We read your image as a colour photo, as you told us.'),
    ).toBeVisible();

    // Each box carries its word (on a phone, in the viewer); the legend counts them; the
    // thresholds are said.
    const boxes = await page.locator('main svg rect').count();
    const words = /^(likely|possible)$/;
    await expect(page.locator('main').getByText(words).first()).toBeHidden();
    await atDesktopWidth(page, async () => {
      await expect(page.locator('main').getByText(words)).toHaveCount(boxes);
    });
    await page.getByRole('button', { name: 'Zoom', exact: true }).tap();
    const viewer = page.getByRole('dialog', { name: 'Lightbox' });
    await expect(viewer.locator('.yarl__slide_current').getByText(words)).toHaveCount(boxes);
    await expect(viewer.locator('.yarl__slide_current').getByText(words).first()).toBeVisible();
    await viewer.getByRole('button', { name: 'Close' }).tap();
    await expect(page.getByRole('list', { name: 'Findings' })).toContainText(
      /Cavity: \d+ red box(es)? \((\d+ likely)?(, )?(\d+ possible)?\)/,
    );
    const figures = recordedFigures('dental-photo-2class', 'Cavity', 'photo');
    const { Cavity: cavity } = figures.classes;
    if (cavity === undefined) throw new Error('The photo model has no Cavity figures.');
    await expect(page.getByText(tierSentence(cavity))).toBeVisible();
    // The model's measured figures, from its metrics file, in plain words.
    await page.getByText('About this result').tap();
    for (const sentence of measuredSentences(figures)) {
      await expect(page.getByText(sentence)).toBeVisible();
    }
    await checkScreen(page, 'result with tier words');
  });
});
