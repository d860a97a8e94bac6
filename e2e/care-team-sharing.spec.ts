import { expect, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';
import { storeXray } from './support/stored-photos';

// 'Share with my dental practice' on the Profile (docs/product/care-team-sharing.md): two
// X-rays chosen, the screen checked at 1280 and 360 px (axe, no sideways scroll), then stopped.
// Its screenshots are taken by hand (e2e/screenshots/care-team.screens.ts), so a test run leaves
// the repository as it was.
test('a member shares two chosen X-rays with the practice, then stops sharing', async ({
  page,
  request,
  account,
}) => {
  await storeXray(request, account, 'Upper right molar');
  await storeXray(request, account, 'Lower left molar');
  await storeXray(request, account, 'Front teeth');
  await logIn(page, account);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Share with my dental practice' });
  await expect(
    section.getByText(
      'Your dental practice sees only your answers for the consultations you book.',
    ),
  ).toBeVisible();
  await section.getByRole('button', { name: 'Choose what to share' }).click();
  await section.getByRole('radio', { name: 'Only the ones I choose' }).check();
  const boxes = section.getByRole('checkbox');
  await expect(boxes).toHaveCount(3);
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await section.scrollIntoViewIfNeeded();
  await checkScreen(page, 'share with my dental practice, choosing');
  await section.getByRole('button', { name: 'Share', exact: true }).click();
  await expect(
    section.getByText('Your dental practice sees 2 chosen photos or X-rays and 0 chosen records.'),
  ).toBeVisible();
  await checkScreen(page, 'share with my dental practice, shared');
  await section.getByRole('button', { name: 'Stop sharing' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop sharing with your dental practice?' });
  await dialog.getByRole('button', { name: 'Stop sharing' }).click();
  await expect(
    section.getByText(
      'Your dental practice sees only your answers for the consultations you book.',
    ),
  ).toBeVisible();
});
