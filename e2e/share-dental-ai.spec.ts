import { dentalAiDisclaimer } from '@dental/contracts';
import { checkForCaries, panoramicWithRedSquare } from './support/dental-ai-record';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen, phoneViewport } from './support/layout-checks';
import { storeImage } from './support/stored-photos';

// A Dental AI result shared with a dentist (docs/product/sharing.md): chosen among the past
// results like photos in their list, and shown on the share's page with its boxes, plain words
// and disclaimer, the image served through the share's own file link.

test.describe('on a phone with touch', () => {
  test.use({ viewport: phoneViewport, hasTouch: true });

  test('shares a Dental AI result, which the dentist sees with its boxes and disclaimer', async ({
    page,
    account,
    request,
    browser,
  }) => {
    test.setTimeout(180_000);
    const xray = await storeImage(request, account, {
      image: await panoramicWithRedSquare(),
      photoType: 'X-ray',
    });
    await logIn(page, account);
    await checkForCaries(page, xray);

    // The member chooses the result among the past results and shares it.
    await page.goto('/dental-ai');
    const past = page.getByRole('region', { name: 'Your past results' });
    const name = (await past.getByRole('link', { name: /^Caries Result of / }).innerText()).trim();
    await past.getByRole('button', { name: 'Share', exact: true }).tap();
    await past.getByRole('checkbox', { name: `Share ${name}` }).check();
    const bar = page.getByRole('region', { name: 'Choose what to share' });
    await expect(bar).toContainText('1 Dental AI result chosen.');
    await checkScreen(page, 'Dental AI, choosing what to share');
    await bar.getByRole('button', { name: 'Share…' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Share with a dentist' });
    await expect(dialog).toContainText('Anyone with the link can see 1 Dental AI result');
    await dialog.getByRole('textbox', { name: 'Label' }).fill('For Dr. Patel');
    await dialog.getByRole('button', { name: 'Create link' }).tap();
    const ready = page.getByRole('dialog', { name: 'Your link is ready' });
    const url = await ready.getByRole('textbox', { name: 'Link to share' }).inputValue();
    await ready.getByRole('button', { name: 'Done' }).tap();

    await page.goto('/account/shared-links');
    await expect(page.getByRole('listitem').filter({ hasText: 'For Dr. Patel' })).toContainText(
      '1 Dental AI result',
    );

    // The dentist, without an account, sees the result as the member does.
    const dentistContext = await browser.newContext({ viewport: phoneViewport, hasTouch: true });
    try {
      const dentist = await dentistContext.newPage();
      await dentist.goto(new URL(url).pathname);
      const results = dentist.getByRole('region', { name: 'Dental AI results' });
      const result = results.getByRole('article', { name });
      await expect(result.getByRole('heading', { name, level: 3 })).toBeVisible();
      const image = result.getByRole('img', {
        name: /^The stored image with \d+ areas? marked$/,
      });
      await expect(image).toBeVisible();
      // The image came through the share's link (it names the share, not the member) and
      // loaded; its boxes are drawn over it.
      const src = await result.locator('img').first().getAttribute('src');
      expect(src).toMatch(/^\/api\/shared-files\//);
      await expect
        .poll(() =>
          result
            .locator('img')
            .first()
            .evaluate((img: HTMLImageElement) => img.naturalWidth),
        )
        .toBe(1280);
      expect(await result.locator('svg rect').count()).toBeGreaterThan(0);
      await expect(result.getByText('We looked for signs of tooth decay')).toBeVisible();
      await expect(result.getByText(dentalAiDisclaimer)).toBeVisible();
      await checkScreen(dentist, 'Shared page with a Dental AI result');
    } finally {
      await dentistContext.close();
    }
  });
});
