import type { Locator, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';

/**
 * Turns on two-step verification in the 'Two-step verification' section on screen, as a member
 * would: the password, the key under the QR code typed into an "app", its current code. Resolves
 * with the section once it shows the recovery codes. `press` is how buttons are pressed (a click,
 * or a tap with touch).
 */
export async function turnOnTwoStep(
  page: Page,
  password: string,
  press: (button: Locator) => Promise<void> = (button) => button.click(),
): Promise<Locator> {
  const section = page.getByRole('region', { name: 'Two-step verification' });
  await press(section.getByRole('button', { name: 'Turn on two-step verification' }));
  const prompt = page.getByRole('dialog', { name: 'Confirm with your password' });
  await prompt.getByRole('textbox', { name: 'Password' }).fill(password);
  await press(prompt.getByRole('button', { name: 'Continue' }));
  const secret = (await section.getByTestId('totp-secret').innerText()).replace(/\s/g, '');
  const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
  await section.getByRole('textbox', { name: 'Code' }).fill(code);
  await press(section.getByRole('button', { name: 'Turn on', exact: true }));
  await section.getByRole('button', { name: 'Copy codes' }).waitFor();
  return section;
}
