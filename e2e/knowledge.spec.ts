import type { Locator } from '@playwright/test';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';

/** The picture arrived and the browser could draw it (served as SVG under our CSP). */
async function expectDrawn(image: Locator) {
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
    .toBeGreaterThan(0);
}

test('reads a dental knowledge article and follows its links', async ({ page, account }) => {
  await logIn(page, account);
  await page.getByRole('link', { name: 'Dental & Tx Knowledgement', exact: true }).click();
  await expect(page).toHaveURL(/\/dental-knowledge\/?$/);
  await expect(
    page.getByRole('heading', { name: 'Dental & Tx Knowledgement', level: 1 }),
  ).toBeVisible();

  const articles = page.getByRole('list', { name: 'Articles' }).getByRole('listitem');
  await expect(articles).toHaveCount(12);
  const brushing = articles.filter({ hasText: 'How to Brush Your Teeth' });
  await expectDrawn(brushing.getByRole('img', { name: 'A toothbrush cleaning a tooth' }));
  const videos = brushing.getByRole('link', { name: /on YouTube/ });
  await expect(videos).toHaveAttribute(
    'href',
    'https://www.youtube.com/results?search_query=How%20to%20Brush%20Your%20Teeth',
  );
  await expect(videos).toHaveAttribute('target', '_blank');
  await expect(videos).toHaveAttribute('rel', 'noopener noreferrer');
  await checkScreen(page, 'dental knowledge list');

  await brushing.getByRole('link', { name: 'How to Brush Your Teeth', exact: true }).click();
  await expect(page).toHaveURL(/\/dental-knowledge\/[0-9a-f-]{36}$/);
  await expect(
    page.getByRole('heading', { name: 'How to Brush Your Teeth', level: 1 }),
  ).toBeVisible();
  await expect(page.getByText(/^Updated on \d{4}-\d{2}-\d{2}$/)).toBeVisible();
  await expect(
    page.getByRole('heading', { name: 'When to see a dentist', level: 2 }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sources', level: 2 })).toBeVisible();
  // Links in the body that leave the app open in a new tab without handing over this page.
  const external = page.getByRole('article').locator('a[href^="https://"]').first();
  await expect(external).toHaveAttribute('target', '_blank');
  await expect(external).toHaveAttribute('rel', 'noopener noreferrer');
  await checkScreen(page, 'dental knowledge article');

  await page.getByRole('link', { name: 'All articles' }).click();
  await expect(page).toHaveURL(/\/dental-knowledge$/);
  await articles.filter({ hasText: 'Wisdom Teeth' }).getByRole('heading').getByRole('link').click();
  await expect(page.getByRole('heading', { name: /Wisdom Teeth/, level: 1 })).toBeVisible();
  await expect(
    page.getByRole('heading', { name: 'When to see a dentist', level: 2 }),
  ).toBeVisible();
});

test('opens a supplier page and sees where to buy', async ({ page, account }) => {
  await logIn(page, account);
  await page
    .getByRole('link', { name: 'Oral Hyglene Suppliers Knowledgement', exact: true })
    .click();
  await expect(page).toHaveURL(/\/oral-supplier\/?$/);
  await expect(
    page.getByRole('heading', { name: 'Oral Hygiene Suppliers', level: 1 }),
  ).toBeVisible();
  await expectDrawn(
    page.getByRole('img', { name: 'A toothbrush, a tube of toothpaste and floss' }),
  );
  await expect(page.getByText(/we earn no commission/)).toBeVisible();
  const cards = page.getByRole('list', { name: 'Suppliers' }).getByRole('link');
  await expect(cards).toHaveCount(8);
  await checkScreen(page, 'oral hygiene suppliers list');

  await cards.filter({ hasText: 'Children' }).click();
  await expect(page).toHaveURL(/\/oral-supplier\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { name: "Children's Oral Care", level: 1 })).toBeVisible();
  await expectDrawn(page.getByRole('img', { name: /child-sized toothbrush/ }));
  await expect(page.getByRole('heading', { name: 'Toothpaste', level: 2 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Buy' })).toHaveAttribute(
    'href',
    /\/oral-supplier\/[0-9a-f-]{36}\/order$/,
  );
  const site = page.getByRole('link', { name: 'Manufacturer’s website' });
  await expect(site).toHaveAttribute('href', 'https://www.oralb.com/');
  await expect(site).toHaveAttribute('target', '_blank');
  await expect(site).toHaveAttribute('rel', 'noopener noreferrer');
  await checkScreen(page, 'oral hygiene supplier page');

  await page.getByRole('link', { name: 'All suppliers' }).click();
  await cards.filter({ hasText: 'Tongue Cleaners' }).click();
  await expect(page.getByRole('heading', { name: 'Tongue Cleaners', level: 1 })).toBeVisible();
  await expect(
    page.getByRole('heading', { name: 'When to see a dentist', level: 2 }),
  ).toBeVisible();
  // No manufacturer is named there; the shop's own tongue cleaner can still be ordered.
  await expect(page.getByRole('link', { name: 'Manufacturer’s website' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Buy' })).toBeVisible();
});
