import { openConsole } from './support/clinic-staff';
import { practitionerAccess } from './support/practitioner';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen } from './support/layout-checks';
import { detectRedSquare, openForm } from './support/red-square';

// A dentist's review (docs/product/photo-reviews.md): the member runs Dental AI on the red
// square, asks a dentist about the result; a practitioner of the practice answers in the clinic
// console (docs/clinic.md#dentist-reviews), confirming one AI box, rejecting the others and
// adding one by keyboard; the member reads the report and sees the boxes. Each screen, the
// member's and the console's, checked at 1280 and 360 px.

test('a member asks a dentist about a Dental AI result and reads the answer with the boxes', async ({
  page,
  request,
  account,
  browser,
}, testInfo) => {
  // Two browsers, one of them the clinic console or a second account, on a loaded CI machine.
  test.setTimeout(180_000);
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

  let rejectedMarks = 0;
  const consolePage = await openConsole(browser, testInfo.project.use.baseURL, practitioner);
  await test.step('the practitioner confirms one AI box, rejects one and adds one by keyboard', async () => {
    const nav = consolePage.getByRole('navigation', { name: 'Console' });
    await nav.getByRole('link', { name: 'Reviews' }).click();
    await expect(
      consolePage.getByRole('heading', { name: 'Dentist reviews', level: 1 }),
    ).toBeVisible();
    const link = consolePage.getByRole('link', {
      name: `${account.username} asks about a Dental AI result`,
    });
    await checkScreen(consolePage, 'clinic console: dentist reviews');
    await link.click();
    await expect(
      consolePage.getByRole('heading', { name: 'Dentist review', level: 1 }),
    ).toBeVisible();
    await expect(consolePage.getByText('Is the red area a cavity?')).toBeVisible();
    const marks = consolePage.getByRole('radiogroup', { name: /^AI \d+: / });
    await expect(marks.first()).toBeVisible();
    // The fixture model boxes each red cell of the square: at least two marks to judge.
    expect(await marks.count()).toBeGreaterThan(1);
    await checkScreen(consolePage, 'clinic console: a review to answer');

    // A drag with the mouse fills the corner fields, which the keyboard then sets exactly.
    const area = await consolePage.getByTestId('drawing-area').boundingBox();
    if (area === null) throw new Error('the image to draw on is not shown');
    await consolePage.mouse.move(area.x + area.width * 0.6, area.y + area.height * 0.6);
    await consolePage.mouse.down();
    await consolePage.mouse.move(area.x + area.width * 0.75, area.y + area.height * 0.8, {
      steps: 5,
    });
    await consolePage.mouse.up();
    const left = consolePage.getByRole('textbox', { name: 'Left (x1)' });
    await expect(left).not.toHaveValue('');

    // Everything else by keyboard alone: no pointer, no dragging (WCAG 2.5.7).
    const typeInto = async (name: string, value: string) => {
      await consolePage.getByRole('textbox', { name }).focus();
      await consolePage.keyboard.press('ControlOrMeta+A');
      await consolePage.keyboard.type(value);
    };
    await typeInto('Left (x1)', '400');
    await typeInto('Top (y1)', '400');
    await typeInto('Right (x2)', '500');
    await typeInto('Bottom (y2)', '500');
    await typeInto('What it shows', 'Calculus');
    await consolePage.keyboard.press('Tab');
    await expect(consolePage.getByRole('button', { name: 'Add box' })).toBeFocused();
    await consolePage.keyboard.press('Enter');
    await expect(
      consolePage.getByRole('list', { name: 'Your boxes on the patient’s image' }),
    ).toHaveText(/Yours 1: Calculus, from 400, 400 to 500, 500/);

    const judge = async (mark: number, verdict: 'Confirm' | 'Reject') => {
      await marks.nth(mark).getByRole('radio', { name: verdict }).focus();
      await consolePage.keyboard.press('Space');
    };
    await judge(0, 'Confirm');
    rejectedMarks = (await marks.count()) - 1;
    for (let mark = 1; mark <= rejectedMarks; mark += 1) await judge(mark, 'Reject');
    await typeInto('Report for the patient', 'A small cavity on the upper tooth.');
    await consolePage.keyboard.press('Enter');
    await consolePage.keyboard.type('Please book a visit.');
    await checkScreen(consolePage, 'clinic console: a review answered, before sending');
    await consolePage.getByRole('button', { name: 'Send the answer' }).focus();
    await consolePage.keyboard.press('Enter');
    await expect(consolePage.getByText(/^Your answer was sent\./)).toBeVisible();
    await expect(
      consolePage.getByRole('img', { name: 'The patient’s image with 2 marked areas' }),
    ).toBeVisible();
    await checkScreen(consolePage, 'clinic console: a review answered');
  });
  await consolePage.context().close();

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
  // The AI's label is the fixture model's class name, 'red'.
  await expect(legend.getByRole('listitem')).toHaveText([
    'red (red box): an area the Dental AI marked, confirmed by the dentist',
    'Calculus (green box): marked by the dentist',
  ]);
  await expect(
    page.getByText(
      `red: ${String(rejectedMarks)} areas marked by the Dental AI, not confirmed by the dentist`,
    ),
  ).toBeVisible();
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
