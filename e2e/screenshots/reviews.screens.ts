import { clinicReview, clinicReviewPaths } from '@dental/contracts';
import { practitionerAccess } from '../support/practitioner';
import { expect, logIn, test } from '../support/fixtures';
import { detectRedSquare, openForm } from '../support/red-square';
import { shoot } from './shoot';

// The member's review screens (docs/product/photo-reviews.md#screens): asking about a Dental AI
// result, the answered review with the dentist's boxes and the AI marks not confirmed, and the
// list with the consent switch.
test('the member’s dentist reviews', async ({ page, request, account }) => {
  const practitioner = await practitionerAccess(request);
  await logIn(page, account);
  await openForm(page);
  await detectRedSquare(page);
  await page.getByRole('link', { name: 'Ask a dentist to review' }).click();
  await page.getByRole('textbox', { name: 'Your question' }).fill('Is the red area a cavity?');
  await shoot(page, 'reviews-ask');
  await page.getByRole('button', { name: 'Ask a dentist' }).click();
  await expect(page.getByText(/has not answered yet/)).toBeVisible();
  const reviewId = new URL(page.url()).pathname.split('/').pop() ?? '';

  const staff = { authorization: `Bearer ${practitioner.access}` };
  const opened = await request.get(clinicReviewPaths.one(reviewId), { headers: staff });
  const aiBoxes = clinicReview.parse(await opened.json()).images[0]?.ai_boxes ?? [];
  const findings = aiBoxes.slice(0, 2).map((box, index) => ({
    box: [box.xmin, box.ymin, box.xmax, box.ymax],
    label: 'Caries',
    verdict: index === 0 ? 'confirmed' : 'rejected',
    ai_box: index,
    photo: null,
  }));
  const answered = await request.put(clinicReviewPaths.one(reviewId), {
    headers: staff,
    data: {
      report:
        'There is a small cavity where the red area is. It is not urgent, but please book a visit in the next few weeks so that we can fill it.',
      findings: [
        ...findings,
        {
          box: [400, 400, 500, 500],
          label: 'Calculus',
          verdict: 'added',
          ai_box: null,
          photo: null,
        },
      ],
    },
  });
  expect(answered.status(), await answered.text()).toBe(200);

  await page.reload();
  await expect(page.locator('svg rect')).toHaveCount(2);
  await shoot(page, 'reviews-answered');
  await shoot(page, 'reviews-answered-marks', page.getByText(/not confirmed by the dentist/));
  await page.getByRole('link', { name: 'All reviews' }).click();
  await expect(page.getByRole('region', { name: 'Answered' })).toBeVisible();
  await shoot(page, 'reviews-list');
  await shoot(page, 'reviews-consent', page.getByRole('switch'));
});
