import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';

const widths = [1280, 360] as const;

/** The viewport at both widths, as `docs/screenshots/<screen>-<width>.png`, palette-reduced so
 *  that the repository stays small. `focus` is scrolled into view at each width, since resizing
 *  moves the page under it. */
export async function shoot(page: Page, screen: string, focus?: Locator) {
  const journeyViewport = page.viewportSize();
  for (const width of widths) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
    await focus?.scrollIntoViewIfNeeded();
    await page.waitForTimeout(400);
    await sharp(await page.screenshot({ type: 'png' }))
      .png({ palette: true, compressionLevel: 9 })
      .toFile(`docs/screenshots/${screen}-${String(width)}.png`);
  }
  // Back to the width the journey runs at, for its next steps.
  await page.setViewportSize(journeyViewport ?? { width: 1280, height: 800 });
}
