import sharp from 'sharp';
import {
  accountPaths,
  oralPhotoPaths,
  tokenPair,
  type NewOralPhotoRequest,
  type OralPhoto,
} from '@dental/contracts';
import type { APIRequestContext, Page } from '@playwright/test';
import { localDate } from './support/dates';
import { expect, logIn, test, type TestAccount } from './support/fixtures';
import { openAddScreen } from './support/add-screen';
import { atNarrowWidth, checkScreen } from './support/layout-checks';
import { pdfOf } from './support/pdf-file';

async function pngOf(width: number, height: number, red: number): Promise<string> {
  const png = await sharp({
    create: { width, height, channels: 3, background: { r: red, g: 200, b: 220 } },
  })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** Stores photos through the API, as the member: the journey is about viewing them. */
async function storePhotos(
  request: APIRequestContext,
  account: TestAccount,
  photos: Omit<NewOralPhotoRequest, 'image_link'>[],
): Promise<OralPhoto[]> {
  const login = await request.post(accountPaths.login, {
    data: { login_type: 'native', email: account.email, password: account.password },
  });
  const { access } = tokenPair.parse(await login.json());
  const stored: OralPhoto[] = [];
  for (const [at, photo] of photos.entries()) {
    const response = await request.post(oralPhotoPaths.list, {
      headers: { Authorization: `Bearer ${access}` },
      data: { ...photo, image_link: await pngOf(800, 600, 40 * at) },
    });
    expect(response.status(), await response.text()).toBe(201);
    stored.push((await response.json()) as OralPhoto);
  }
  return stored;
}

/** The pathnames the page has fetched, to tell originals from thumbnails. */
function fetchedPaths(page: Page): Set<string> {
  const paths = new Set<string>();
  page.on('request', (request) => paths.add(new URL(request.url()).pathname));
  return paths;
}

const pathOf = (link: string) => new URL(link, 'http://localhost').pathname;

/** The scale of the image the viewer shows, from its zoom transform (1 when not zoomed). */
function shownScale(page: Page): Promise<number> {
  return page
    .locator('.yarl__slide_current .yarl__slide_image')
    .evaluate((image) => new DOMMatrix(getComputedStyle(image.parentElement ?? image).transform).a);
}

test('photos: thumbnails in the list, the full-screen viewer, and a before/after comparison', async ({
  page,
  account,
  request,
}) => {
  test.setTimeout(240_000);
  const today = localDate();
  const earlier = localDate(new Date(Date.now() - 7 * 24 * 60 * 60 * 1000));
  const [before, after, photo] = await storePhotos(request, account, [
    { shoot_date: earlier, photo_type: 'X-ray', note: 'Before the filling, lower left' },
    { shoot_date: today, photo_type: 'X-ray', note: 'After the filling' },
    { shoot_date: today, photo_type: 'Photo', note: '' },
  ]);
  if (before === undefined || after === undefined || photo === undefined) throw new Error('3');

  const fetched = fetchedPaths(page);
  await logIn(page, account);
  await page.goto('/oral-photo');

  // Closed cards: thumbnail, date, type and the start of the note; no original is fetched.
  const beforeCard = page.getByRole('button', { name: `${earlier} X-ray` });
  await expect(beforeCard).toContainText('Before the filling, lower left');
  const thumbnail = beforeCard.locator('img');
  await expect
    .poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth))
    .toBe(320);
  for (const stored of [before, after, photo]) {
    expect(fetched).toContain(pathOf(stored.thumbnail_link));
    expect(fetched).not.toContain(pathOf(stored.image_link));
  }

  // The viewer, from the open card: the original, zoom and pan by keyboard, next and previous.
  await page.getByRole('button', { name: `${today} X-ray` }).click();
  await page.getByRole('button', { name: 'View', exact: true }).click();
  const viewer = page.getByRole('dialog', { name: 'Lightbox' });
  await expect(viewer).toBeVisible();
  await expect(viewer.getByText(`X-ray of ${today}`)).toBeVisible();
  await expect.poll(() => fetched.has(pathOf(after.image_link))).toBe(true);
  const zoomOut = viewer.getByRole('button', { name: 'Zoom out' });
  await expect(zoomOut).toBeDisabled();
  // The viewer can zoom once the original has loaded and its size is known.
  await expect(viewer.getByRole('button', { name: 'Zoom in' })).toBeEnabled();

  await page.keyboard.press('+');
  await expect(zoomOut).toBeEnabled();
  await expect.poll(() => shownScale(page)).toBeGreaterThan(1);
  const zoomed = await viewer.locator('.yarl__slide_current .yarl__slide_image').boundingBox();
  await page.keyboard.press('ArrowRight');
  await expect
    .poll(
      async () =>
        (await viewer.locator('.yarl__slide_current .yarl__slide_image').boundingBox())?.x,
    )
    .not.toBe(zoomed?.x);
  // Still the same photo: while zoomed, arrow keys pan.
  await expect(viewer.getByText(`X-ray of ${today}`)).toBeVisible();
  await page.keyboard.press('-');
  await expect(zoomOut).toBeDisabled();

  await page.keyboard.press('ArrowRight');
  await expect(viewer.getByText('Photo of', { exact: false })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(viewer.getByText(`X-ray of ${today}`)).toBeVisible();

  const downloading = page.waitForEvent('download');
  await viewer.getByRole('button', { name: 'Download' }).click();
  expect((await downloading).suggestedFilename()).toBe(`X-ray-${today}.png`);
  await checkScreen(page, 'image viewer');
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();

  // Two X-rays side by side; any image may pair with the first, none may join two.
  await page.getByRole('checkbox', { name: `Compare X-ray of ${earlier}` }).check();
  const photoBox = page.getByRole('checkbox', { name: `Compare Photo of ${today}` });
  await expect(photoBox).toBeEnabled();
  await page.getByRole('checkbox', { name: `Compare X-ray of ${today}` }).check();
  await expect(photoBox).toBeDisabled();
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  const comparison = page.getByRole('dialog', { name: 'Compare X-rays' });
  await expect(comparison.getByText(`Before: ${earlier}`)).toBeVisible();
  await expect(comparison.getByText(`After: ${today}`)).toBeVisible();
  const beforeImage = comparison.getByRole('img', { name: `X-ray of ${earlier}` });
  const afterImage = comparison.getByRole('img', { name: `X-ray of ${today}` });
  await expect(beforeImage).toBeVisible();
  await expect(afterImage).toBeVisible();
  // Side by side on a desktop, stacked on a phone; polled while the dialog's opening transition
  // still moves them.
  await expect
    .poll(async () => {
      const [left, right] = await Promise.all([
        beforeImage.boundingBox(),
        afterImage.boundingBox(),
      ]);
      return left !== null && right !== null && left.y === right.y;
    })
    .toBe(true);
  await checkScreen(page, 'photo comparison');
  await atNarrowWidth(page, async () => {
    await expect
      .poll(async () => (await afterImage.boundingBox())?.y ?? 0)
      .toBeGreaterThan(((await beforeImage.boundingBox())?.y ?? 0) + 100);
  });
});

test.describe('on a phone with touch', () => {
  test.use({ viewport: { width: 360, height: 740 }, hasTouch: true });

  // The viewer hid its own title: the '1/3' counter lay over it, at 360 px the title was cut to
  // 'Photo…' so the date could not be read, and the toolbar let the page show through.
  test('the viewer shows its whole title, the counter apart from it, on an opaque toolbar', async ({
    page,
    account,
    request,
  }) => {
    const today = localDate();
    await storePhotos(request, account, [
      { shoot_date: today, photo_type: 'X-ray', note: '' },
      { shoot_date: today, photo_type: 'Photo', note: '' },
      { shoot_date: today, photo_type: 'X-ray', note: '' },
    ]);
    await logIn(page, account);
    await page.goto('/oral-photo');
    await page.getByRole('button', { name: `${today} Photo` }).tap();
    await page.getByRole('button', { name: 'View', exact: true }).tap();
    const viewer = page.getByRole('dialog', { name: 'Lightbox' });
    const title = viewer.locator('.yarl__slide_current .yarl__slide_title');
    await expect(title).toHaveText(`Photo of ${today}`);
    // Not cut: the whole text fits the box it is drawn in.
    expect(await title.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(
      true,
    );
    const counter = viewer.locator('.yarl__counter');
    await expect(counter).toHaveText(/\d+ \/ 3/);
    const [titleBox, counterBox, toolbarBox] = await Promise.all([
      title.boundingBox(),
      counter.boundingBox(),
      viewer.locator('.yarl__toolbar').boundingBox(),
    ]);
    if (titleBox === null || counterBox === null || toolbarBox === null) throw new Error('hidden');
    const apart = (a: typeof titleBox, b: typeof titleBox) =>
      a.y + a.height <= b.y ||
      b.y + b.height <= a.y ||
      a.x + a.width <= b.x ||
      b.x + b.width <= a.x;
    expect(apart(titleBox, counterBox)).toBe(true);
    expect(apart(titleBox, toolbarBox)).toBe(true);
    expect(
      await viewer
        .locator('.yarl__toolbar')
        .evaluate((element) => getComputedStyle(element).backgroundColor),
    ).toBe('rgb(0, 0, 0)');
    await checkScreen(page, 'the viewer on a phone');
  });

  // A record's PDF was drawn to the screen's width and could not be zoomed: on a phone its text
  // was about 9 px high.
  test('a PDF zooms with the buttons and by pinching, and is drawn sharp when zoomed', async ({
    page,
    account,
  }) => {
    await logIn(page, account);
    await page.goto('/medical-records');
    await openAddScreen(page, /\/medical-records\/add$/);
    await page.getByLabel('Title').fill('Treatment plan');
    await page.getByLabel('Files').setInputFiles({
      name: 'plan.pdf',
      mimeType: 'application/pdf',
      buffer: pdfOf([['Treatment plan, page one'], ['Page two: costs']]),
    });
    await page.getByRole('button', { name: 'Save' }).tap();
    await page.getByRole('button', { name: /Treatment plan/ }).tap();
    await page.getByRole('button', { name: 'Open plan.pdf' }).tap();
    const viewer = page.getByRole('dialog', { name: 'Lightbox' });
    const firstPage = viewer.getByRole('img', { name: 'Page 1 of 2' });
    await expect(viewer.getByRole('img', { name: 'Page 2 of 2' })).toBeVisible();
    const shown = () =>
      firstPage.evaluate((canvas: HTMLCanvasElement) => ({
        width: canvas.getBoundingClientRect().width,
        pixels: canvas.width,
      }));
    const fitted = await shown();
    expect(fitted.width).toBeLessThanOrEqual(360);

    const zoomIn = viewer.getByRole('button', { name: 'Zoom in' });
    await expect(zoomIn).toBeEnabled();
    await zoomIn.tap();
    await expect.poll(async () => (await shown()).width).toBeGreaterThan(fitted.width * 1.8);
    // Drawn again for the zoom, not stretched: a zoomed page has the pixels its size needs.
    await expect.poll(async () => (await shown()).pixels).toBeGreaterThan(fitted.pixels * 1.8);
    await viewer.getByRole('button', { name: 'Zoom out' }).tap();
    await expect.poll(async () => (await shown()).width).toBeCloseTo(fitted.width, 0);

    await pinch(page, { x: 100, y: 200 }, 60, 240);
    await expect.poll(async () => (await shown()).width).toBeGreaterThan(fitted.width * 1.5);
    await checkScreen(page, 'a zoomed PDF on a phone');
  });
});

/** Two fingers on the screen around `center`, moving from `from` px apart to `to` px apart. */
async function pinch(page: Page, center: { x: number; y: number }, from: number, to: number) {
  const cdp = await page.context().newCDPSession(page);
  const fingers = (apart: number) => [
    { x: center.x - apart / 2, y: center.y, id: 0 },
    { x: center.x + apart / 2, y: center.y, id: 1 },
  ];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(from) });
  const steps = 12;
  for (let step = 1; step <= steps; step += 1) {
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchMove',
      touchPoints: fingers(from + ((to - from) * step) / steps),
    });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}
