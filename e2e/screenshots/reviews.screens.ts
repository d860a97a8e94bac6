import { openConsole } from '../support/clinic-staff';
import { practitionerAccess } from '../support/practitioner';
import { expect, logIn, test } from '../support/fixtures';
import { detectRedSquare, openForm } from '../support/red-square';
import { shoot } from './shoot';

// The review screens (docs/product/photo-reviews.md#screens, docs/clinic.md#dentist-reviews):
// the member asks about a Dental AI result; in the clinic console, the waiting reviews and the
// practitioner's answer (marks judged, a box added and one being drawn, the report); then the
// member's answered review with the dentist's boxes and the AI marks not confirmed, and the list
// with the consent switch.
test('the member’s dentist reviews', async ({ page, request, account, browser }, testInfo) => {
  const practitioner = await practitionerAccess(request);
  await logIn(page, account);
  await openForm(page);
  await detectRedSquare(page);
  await page.getByRole('link', { name: 'Ask a dentist to review' }).click();
  await page.getByRole('textbox', { name: 'Your question' }).fill('Is the red area a cavity?');
  await shoot(page, 'reviews-ask');
  await page.getByRole('button', { name: 'Ask a dentist' }).click();
  await expect(page.getByText(/has not answered yet/)).toBeVisible();

  const consolePage = await openConsole(browser, testInfo.project.use.baseURL, practitioner);
  await consolePage.goto('/clinic/reviews');
  await expect(consolePage.getByRole('list', { name: 'Reviews' })).toBeVisible();
  await shoot(consolePage, 'clinic-reviews');
  await consolePage
    .getByRole('link', { name: `${account.username} asks about a Dental AI result` })
    .click();
  const marks = consolePage.getByRole('radiogroup', { name: /^AI \d+: / });
  await marks.first().getByRole('radio', { name: 'Confirm' }).check();
  for (let mark = 1; mark < (await marks.count()); mark += 1) {
    await marks.nth(mark).getByRole('radio', { name: 'Reject' }).check();
  }
  const corners = {
    'Left (x1)': '400',
    'Top (y1)': '400',
    'Right (x2)': '500',
    'Bottom (y2)': '500',
  };
  for (const [name, value] of Object.entries(corners)) {
    await consolePage.getByRole('textbox', { name }).fill(value);
  }
  await consolePage.getByRole('textbox', { name: 'What it shows' }).fill('Calculus');
  await consolePage.getByRole('button', { name: 'Add box' }).click();
  // A box being drawn: the pink dashes over the image.
  await consolePage.getByRole('textbox', { name: 'Left (x1)' }).fill('100');
  await consolePage.getByRole('textbox', { name: 'Top (y1)' }).fill('420');
  await consolePage.getByRole('textbox', { name: 'Right (x2)' }).fill('260');
  await consolePage.getByRole('textbox', { name: 'Bottom (y2)' }).fill('560');
  await consolePage
    .getByRole('textbox', { name: 'Report for the patient' })
    .fill(
      'There is a small cavity where the red area is. It is not urgent, but please book a visit in the next few weeks so that we can fill it.',
    );
  await shoot(consolePage, 'clinic-review', consolePage.getByRole('link', { name: 'All reviews' }));
  await shoot(consolePage, 'clinic-review-marks', marks.first());
  for (const name of Object.keys(corners)) {
    await consolePage.getByRole('textbox', { name }).fill('');
  }
  await consolePage.getByRole('button', { name: 'Send the answer' }).click();
  await expect(consolePage.getByText(/^Your answer was sent\./)).toBeVisible();
  await shoot(consolePage, 'clinic-review-answered');
  await consolePage.context().close();

  await page.reload();
  await expect(page.locator('svg rect')).toHaveCount(2);
  await shoot(page, 'reviews-answered');
  await shoot(
    page,
    'reviews-answered-marks',
    page.getByText(/not confirmed by the dentist/).first(),
  );
  await page.getByRole('link', { name: 'All reviews' }).click();
  await expect(page.getByRole('region', { name: 'Answered' })).toBeVisible();
  await shoot(page, 'reviews-list');
  await shoot(page, 'reviews-consent', page.getByRole('switch'));
});
