import { openConsole } from '../support/clinic-staff';
import { checkForCaries, panoramicWithRedSquare } from '../support/dental-ai-record';
import { expect, logIn, test } from '../support/fixtures';
import { practitionerWithHours } from '../support/practitioner';
import { storeImage } from '../support/stored-photos';
import { shoot } from './shoot';

// A Dental AI result attached to a booking (docs/product/consultation.md): chosen on the booking
// form, listed in the reservation's details, and shown in the clinic console's consultation.
test('Dental AI results for the doctor of a booking', async ({
  page,
  account,
  request,
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const practitioner = await practitionerWithHours(request);
  const xray = await storeImage(request, account, {
    image: await panoramicWithRedSquare(),
    photoType: 'X-ray',
  });
  await logIn(page, account);
  await checkForCaries(page, xray, false);
  await page.goto('/virtual-consultation/book');
  await page.getByRole('radio', { name: new RegExp(practitioner.name) }).check();
  await page.getByRole('radiogroup', { name: 'Day' }).getByRole('radio').first().click();
  await page.getByRole('radiogroup', { name: 'Time' }).getByRole('radio').first().click();
  for (const question of await page.getByRole('textbox').all()) {
    await question.fill('A dark spot on a lower molar');
  }
  const attach = page.getByRole('group', {
    name: 'Show the doctor your Dental AI results (optional)',
  });
  await attach.getByRole('checkbox', { name: /^Caries Result of / }).check();
  await shoot(page, 'booking-dental-ai', attach);
  await page.getByRole('button', { name: 'Confirm Reservation' }).click();
  await expect(page.getByText('Your consultation is booked')).toBeVisible();
  await page.goto('/virtual-consultation/reservation-record');
  await page.getByRole('button', { name: new RegExp(practitioner.name) }).click();
  const details = page.getByRole('dialog', { name: 'Reservation Information' });
  const shown = details.getByRole('region', { name: 'Dental AI results shown to the doctor' });
  await expect(shown).toBeVisible();
  await shoot(page, 'reservation-dental-ai', shown);

  const consolePage = await openConsole(browser, testInfo.project.use.baseURL, practitioner);
  const results = consolePage
    .getByRole('article', { name: `Consultation with ${account.username}` })
    .getByRole('region', { name: 'Dental AI results the patient attached' });
  await expect(results.getByRole('img', { name: /areas? marked$/ })).toBeVisible();
  await shoot(consolePage, 'clinic-consultation-dental-ai', results);
  await consolePage.context().close();
});
