import type { Page } from '@playwright/test';

const widths = [1280, 360] as const;

/** The viewport at both widths, as `docs/screenshots/<screen>-<width>.png`. */
export async function shoot(page: Page, screen: string) {
  for (const width of widths) {
    await page.setViewportSize({ width, height: width === 360 ? 740 : 800 });
    await page.waitForTimeout(400);
    await page.screenshot({ path: `docs/screenshots/${screen}-${String(width)}.png`, type: 'png' });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}
