import { clinicReview, clinicReviewPaths } from '@dental/contracts';
import { practitionerAccess } from './support/practitioner';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';
import { detectRedSquare, openForm } from './support/red-square';

// A dentist's review (docs/product/photo-reviews.md): the member runs Dental AI on the red
// square, asks a dentist about the result; a practitioner of the practice answers through the API
// (the console's screens are another journey's), confirming one AI box, rejecting one and adding
// one; the member reads the report and sees the boxes. Each screen checked at 1280 and 360 px.

test('a member asks a dentist about a Dental AI result and reads the answer with the boxes', async ({
  page,
  request,
  account,
}) => {
  const practitioner = await practitionerAccess(request);
  await logIn(page, account);
  await openForm(page);
  await detectRedSquare(page);

  await page.getByRole('link', { name: 'Ask a dentist to review' }).click();
  await expect(
    page.getByRole('heading', { name: 'Ask a dentist to review', level: 1 }),
  ).toBeVisible();
  await expect(page.getByText('1 of 1 dentist review left on your Silver plan')).toBeVisible();
  await page.getByRole('textbox', { name: 'Your question' }).fill('Is the red area a cavity?');
  await checkScreen(page, 'ask a dentist to review');
  await page.getByRole('button', { name: 'Ask a dentist' }).click();

  await expect(page.getByRole('heading', { name: 'Dentist review', level: 1 })).toBeVisible();
  await expect(page.getByText('Is the red area a cavity?')).toBeVisible();
  await expect(page.getByText(/has not answered yet/)).toBeVisible();
  await checkScreen(page, 'review, waiting');
  const reviewId = new URL(page.url()).pathname.split('/').pop() ?? '';

  const staff = { authorization: `Bearer ${practitioner.access}` };
  const opened = await request.get(clinicReviewPaths.one(reviewId), { headers: staff });
  expect(opened.status(), await opened.text()).toBe(200);
  const aiBoxes = clinicReview.parse(await opened.json()).images[0]?.ai_boxes ?? [];
  expect(aiBoxes.length).toBeGreaterThan(0);
  const asBox = (index: number) => {
    const box = aiBoxes[index];
    if (box === undefined) throw new Error(`no AI box ${String(index)}`);
    return [box.xmin, box.ymin, box.xmax, box.ymax];
  };
  const findings = [
    { box: asBox(0), label: 'Caries', verdict: 'confirmed', ai_box: 0, photo: null },
    ...(aiBoxes.length > 1
      ? [{ box: asBox(1), label: 'Caries', verdict: 'rejected', ai_box: 1, photo: null }]
      : []),
    { box: [400, 400, 500, 500], label: 'Calculus', verdict: 'added', ai_box: null, photo: null },
  ];
  const answered = await request.put(clinicReviewPaths.one(reviewId), {
    headers: staff,
    data: { report: 'A small cavity on the upper tooth.\nPlease book a visit.', findings },
  });
  expect(answered.status(), await answered.text()).toBe(200);

  await page.reload();
  await expect(page.getByRole('heading', { name: 'The dentist’s answer' })).toBeVisible();
  await expect(
    page.getByText(/A small cavity on the upper tooth\.\s+Please book a visit\./),
  ).toBeVisible();
  await expect(
    page.getByText(new RegExp(`^${practitioner.name}, \\d{4}-\\d{2}-\\d{2}$`)),
  ).toBeVisible();
  await expect(page.getByRole('img', { name: 'Your image with 2 marked areas' })).toBeVisible();
  // Drawn: the confirmed AI box and the dentist's own, never the rejected one.
  await expect(page.locator('svg rect')).toHaveCount(2);
  const legend = page.getByRole('list', { name: /What the boxes on your image show/ });
  await expect(legend.getByRole('listitem')).toHaveText([
    'Caries (red box): an area the Dental AI marked, confirmed by the dentist',
    'Calculus (green box): marked by the dentist',
  ]);
  if (aiBoxes.length > 1) {
    await expect(
      page.getByText('Caries: marked by the Dental AI, not confirmed by the dentist'),
    ).toBeVisible();
  }
  await checkScreen(page, 'review, answered');

  await page.getByRole('link', { name: 'All reviews' }).click();
  await expect(page.getByRole('heading', { name: 'Dentist reviews', level: 1 })).toBeVisible();
  const answeredList = page.getByRole('region', { name: 'Answered' });
  await expect(answeredList.getByRole('link', { name: 'Is the red area a cavity?' })).toBeVisible();
  await expect(page.getByText('No reviews left this year')).toBeVisible();
  const consent = page.getByRole('switch', {
    name: 'Let my reviewed images help improve the Dental AI',
  });
  await expect(consent).not.toBeChecked();
  await checkScreen(page, 'reviews');
  await consent.click();
  await expect(consent).toBeChecked();
  await expect(page.getByText(/^Allowed since /)).toBeVisible();
});
