import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { closeDialog, expect, logIn, test } from '../support/fixtures';
import { shoot } from './shoot';

/** pdf.js's canvas maker in Node, which its types leave unnamed. */
interface NodeCanvasFactory {
  create(
    width: number,
    height: number,
  ): { canvas: HTMLCanvasElement & { toBuffer(type: 'image/png'): Buffer } };
}

/** The first page of a PDF as pdf.js draws it (on @napi-rs/canvas in Node), palette-reduced. */
async function renderFirstPage(bytes: Uint8Array, file: string) {
  const document = await getDocument({ data: bytes, isEvalSupported: false }).promise;
  try {
    const page = await document.getPage(1);
    const viewport = page.getViewport({ scale: 1.5 });
    const { canvas } = (
      document as unknown as { canvasFactory: NodeCanvasFactory }
    ).canvasFactory.create(viewport.width, viewport.height);
    await page.render({ canvas, viewport, background: 'white' }).promise;
    await sharp(canvas.toBuffer('image/png'))
      .png({ palette: true, compressionLevel: 9 })
      .toFile(file);
  } finally {
    await document.destroy();
  }
}

// Receipts (docs/product/receipts.md): the empty screen, the screen after a Gold purchase, and
// the receipt's PDF as printed.
test('Receipts', async ({ page, account }) => {
  test.setTimeout(120_000);
  await logIn(page, account);
  await page.goto('/account/receipts');
  await expect(page.getByText(/^No payments yet\./)).toBeVisible();
  await shoot(page, 'receipts-empty');

  await page.goto('/membership');
  await page.getByRole('checkbox', { name: 'I agree to the following:' }).check();
  await page.getByRole('button', { name: 'Choose Plan Gold' }).click();
  await closeDialog(page.getByRole('dialog'));
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(/\/membership\?payment=paid$/);

  await page.goto('/account/receipts');
  const receipt = page.getByRole('listitem');
  await expect(receipt).toContainText('Gold membership, 1 year');
  await shoot(page, 'receipts');

  const downloading = page.waitForEvent('download');
  await receipt.getByRole('link', { name: /^Download PDF of receipt / }).click();
  const download = await downloading;
  await renderFirstPage(
    new Uint8Array(await readFile(await download.path())),
    'docs/screenshots/receipt-pdf.png',
  );
});
