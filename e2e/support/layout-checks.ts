import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** The narrowest phone width the screens must fit without sideways scrolling. */
export const phoneViewport = { width: 360, height: 740 };
/** The desktop width every journey's screens are judged at too. */
const desktopViewport = { width: 1280, height: 800 };

/** Lets opening transitions (modals, menus) end so axe judges the settled screen. A transition
 *  starts a frame or two after its element mounts, so two frames pass before looking for it. */
async function settle(page: Page) {
  await page.evaluate(
    () =>
      new Promise((resolve) => {
        requestAnimationFrame(() => requestAnimationFrame(resolve));
      }),
  );
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/** axe with its default rule set (WCAG A/AA and best practices): no violation allowed. */
export async function expectNoAxeViolations(page: Page, screen: string) {
  await settle(page);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const found = violations.map((violation) => ({
    rule: violation.id,
    impact: violation.impact,
    help: violation.help,
    targets: violation.nodes.map((node) => node.target.join(' ')),
  }));
  expect.soft(found, `axe violations on ${screen}`).toEqual([]);
}

export async function expectNoSidewaysScroll(page: Page, screen: string) {
  await settle(page);
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect
    .soft(scrollWidth, `page width of ${screen} at ${innerWidth}px`)
    .toBeLessThanOrEqual(innerWidth);
}

/** axe at the desktop width, then the same at 360 px along with the sideways-scroll check,
 *  whatever width the journey runs at: a journey on a phone judges each screen at both widths
 *  without running twice (docs/decisions/e2e-harness.md#widths). */
export async function expectAccessibleAtAllWidths(page: Page, screen: string) {
  await page.setViewportSize(desktopViewport);
  await expectNoAxeViolations(page, `${screen} (desktop)`);
  await page.setViewportSize(phoneViewport);
  await expectNoSidewaysScroll(page, screen);
  await expectNoAxeViolations(page, `${screen} (360 px)`);
}

/** Runs `steps`, then puts back the viewport the journey had, for its next steps. */
async function keepingViewport(page: Page, steps: () => Promise<void>) {
  const viewport = page.viewportSize();
  await steps();
  if (viewport !== null) await page.setViewportSize(viewport);
}

/** Runs `steps` at 360 px and then goes back to the journey's viewport. */
export async function atNarrowWidth(page: Page, steps: () => Promise<void>) {
  await keepingViewport(page, async () => {
    await page.setViewportSize(phoneViewport);
    await steps();
  });
}

/** Runs `steps` at the desktop width and then goes back to the journey's viewport. */
export async function atDesktopWidth(page: Page, steps: () => Promise<void>) {
  await keepingViewport(page, async () => {
    await page.setViewportSize(desktopViewport);
    await steps();
  });
}

/** expectAccessibleAtAllWidths, then back to the viewport the journey had, for its next steps. */
export async function checkScreen(page: Page, screen: string) {
  await keepingViewport(page, () => expectAccessibleAtAllWidths(page, screen));
}
