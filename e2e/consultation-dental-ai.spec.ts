import { dentalAiDisclaimer } from '@dental/contracts';
import { openConsole } from './support/clinic-staff';
import { checkForCaries, panoramicWithRedSquare } from './support/dental-ai-record';
import { expect, logIn, test } from './support/fixtures';
import { checkScreen, phoneViewport } from './support/layout-checks';
import { practitionerWithHours } from './support/practitioner';
import { storeImage } from './support/stored-photos';

// A Dental AI result attached to a virtual-consultation booking
// (docs/product/consultation.md#dental-ai-results-for-the-doctor): the member chooses it on the
// booking form, finds it in the reservation's details, and the practitioner booked sees the image
// with its boxes, the plain words and the disclaimer in the clinic console, the image through the
// care team's own link; the member's Account activity says the practitioner opened it.

test.describe('on a phone with touch', () => {
  test.use({ viewport: phoneViewport, hasTouch: true });

  test('a Dental AI result attached to a booking reaches the practitioner booked', async ({
    page,
    account,
    request,
    browser,
  }, testInfo) => {
    // Two browsers, one of them the clinic console, on a loaded CI machine.
    test.setTimeout(240_000);
    const practitioner = await practitionerWithHours(request);

    const xray = await storeImage(request, account, {
      image: await panoramicWithRedSquare(),
      photoType: 'X-ray',
    });
    await logIn(page, account);
    await checkForCaries(page, xray);

    await page.goto('/virtual-consultation/book');
    await page.getByRole('radio', { name: new RegExp(practitioner.name) }).check();
    await page.getByRole('radiogroup', { name: 'Day' }).getByRole('radio').first().tap();
    await page.getByRole('radiogroup', { name: 'Time' }).getByRole('radio').first().tap();
    for (const question of await page.getByRole('textbox').all()) {
      await question.fill('A dark spot on a lower molar');
    }
    const attach = page.getByRole('group', {
      name: 'Show the doctor your Dental AI results (optional)',
    });
    const choice = attach.getByRole('checkbox', { name: /^Caries Result of / });
    const name = (
      await choice.evaluate((input: HTMLInputElement) => input.labels?.[0]?.textContent ?? '')
    ).trim();
    expect(name).toMatch(/^Caries Result of \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    await choice.check();
    await checkScreen(page, 'booking, a Dental AI result chosen');
    await page.getByRole('button', { name: 'Confirm Reservation' }).tap();
    await expect(page.getByText('Your consultation is booked')).toBeVisible();

    // The member finds it in the reservation's details, one tap from the result.
    await page.goto('/virtual-consultation/reservation-record');
    await page.getByRole('button', { name: new RegExp(practitioner.name) }).tap();
    const details = page.getByRole('dialog', { name: 'Reservation Information' });
    const shown = details.getByRole('region', { name: 'Dental AI results shown to the doctor' });
    await expect(shown.getByRole('link', { name })).toBeVisible();
    await checkScreen(page, 'reservation details with a Dental AI result');

    const consolePage = await openConsole(browser, testInfo.project.use.baseURL, practitioner);
    await test.step('the practitioner sees the result with its boxes and words', async () => {
      const consultation = consolePage.getByRole('article', {
        name: `Consultation with ${account.username}`,
      });
      const results = consultation.getByRole('region', {
        name: 'Dental AI results the patient attached',
      });
      const result = results.getByRole('article', { name });
      await expect(
        result.getByRole('img', { name: /^The stored image with \d+ areas? marked$/ }),
      ).toBeVisible();
      const image = result.locator('img').first();
      // Through the care team's link (it names the staff member, not the patient), loaded.
      expect(await image.getAttribute('src')).toMatch(/^\/api\/care-team-files\//);
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth))
        .toBe(1280);
      await expect(result.getByText(dentalAiDisclaimer)).toBeVisible();
      await checkScreen(consolePage, 'clinic console: a consultation with a Dental AI result');
    });
    await consolePage.context().close();

    // Shown and its image opened: two rows of the practitioner's in the member's trail.
    await page.goto('/account/activity');
    await expect(
      page.getByText(new RegExp(`^${practitioner.name} opened your Dental AI result of `)),
    ).toHaveCount(2);
  });
});
