import { readFile } from 'node:fs/promises';
import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { accountPaths, reportPaths, tokenPair } from '@dental/contracts';
import type { TestAccount } from './fixtures';

/** Buys Gold on the Membership screen through the test-mode checkout. */
export async function buyGold(page: Page) {
  await page.goto('/membership');
  await page.getByRole('checkbox', { name: 'I agree to the following:' }).check();
  await page.getByRole('button', { name: 'Choose Plan Gold' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/membership\?payment=paid$/);
}

/** Asks for `count` summary reports through the API, as the member (a session of its own). */
export async function askSummaries(
  request: APIRequestContext,
  account: TestAccount,
  count: number,
) {
  const login = await request.post(accountPaths.login, {
    data: { login_type: 'native', email: account.email, password: account.password },
  });
  const { access } = tokenPair.parse(await login.json());
  for (let asked = 0; asked < count; asked++) {
    const response = await request.post(reportPaths.root, {
      headers: { authorization: `Bearer ${access}` },
      data: { kind: 'summary' },
    });
    expect(response.status(), await response.text()).toBe(202);
  }
}

/** Clicks `link` (the first Download on the page unless told) and answers the PDF's text,
 *  page by page, read with pdf.js. */
export async function downloadedPdfText(
  page: Page,
  link: Locator = page.getByRole('link', { name: 'Download' }).first(),
): Promise<string[]> {
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const bytes = await readFile(await download.path());
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false })
    .promise;
  try {
    const pages: string[] = [];
    for (let number = 1; number <= document.numPages; number++) {
      const content = await (await document.getPage(number)).getTextContent();
      pages.push(
        content.items
          .map((item) => ('str' in item ? item.str : ''))
          .join(' ')
          .replace(/\s+/g, ' '),
      );
    }
    return pages;
  } finally {
    await document.destroy();
  }
}
