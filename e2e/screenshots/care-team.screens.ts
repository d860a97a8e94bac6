import { expect, logIn, test } from '../support/fixtures';
import { storeXray } from '../support/stored-photos';
import { shoot } from './shoot';

test('the Profile’s Share with my dental practice, choosing two of three X-rays', async ({
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
  await section.getByRole('button', { name: 'Choose what to share' }).click();
  await section.getByRole('radio', { name: 'Only the ones I choose' }).check();
  const boxes = section.getByRole('checkbox');
  await expect(boxes).toHaveCount(3);
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await shoot(page, 'care-team-share', section);
});
