import sharp from 'sharp';
import { accountPaths, oralPhotoPaths, tokenPair } from '@dental/contracts';
import { localDate } from '../support/dates';
import { logIn, test } from '../support/fixtures';
import { shoot } from './shoot';

async function gradientPng(hue: number): Promise<string> {
  const width = 640;
  const height = 480;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      pixels[at] = (x + hue) % 256;
      pixels[at + 1] = (y / 2 + 90) % 256;
      pixels[at + 2] = 200;
    }
  }
  const png = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

test('image screens', async ({ page, account, request }) => {
  test.setTimeout(180_000);
  const login = await request.post(accountPaths.login, {
    data: { login_type: 'native', email: account.email, password: account.password },
  });
  const { access } = tokenPair.parse(await login.json());
  const today = localDate();
  const earlier = localDate(new Date(Date.now() - 14 * 24 * 60 * 60 * 1000));
  for (const [at, shoot_date] of [earlier, today].entries()) {
    await request.post(oralPhotoPaths.list, {
      headers: { Authorization: `Bearer ${access}` },
      data: {
        shoot_date,
        photo_type: 'X-ray',
        note: at === 0 ? 'Before the filling, lower left molar' : 'After the filling',
        image_link: await gradientPng(at * 120),
      },
    });
  }
  await logIn(page, account);
  await page.goto('/oral-photo');
  await page.getByRole('button', { name: `${today} X-ray` }).waitFor();
  await shoot(page, 'photo-list-thumbnails');

  await page.getByRole('button', { name: `${today} X-ray` }).click();
  await page.getByRole('button', { name: 'View', exact: true }).click();
  await page.keyboard.press('+');
  await shoot(page, 'image-viewer');
  await page.keyboard.press('Escape');

  await page.getByRole('checkbox', { name: `Compare X-ray of ${earlier}` }).check();
  await page.getByRole('checkbox', { name: `Compare X-ray of ${today}` }).check();
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await page.getByText(`After: ${today}`).waitFor();
  await shoot(page, 'photo-comparison');
  await page.keyboard.press('Escape');

  await page.goto('/medical-records/add');
  await page.getByRole('button', { name: 'I accept' }).click();
  await page.getByTestId('drop-zone').waitFor();
  await shoot(page, 'record-drop-zone');
});

test('photo list with more than one page', async ({ page, account, request }) => {
  // 31 uploads, more than a member may send in a minute: the 31st waits out the limit.
  test.setTimeout(240_000);
  const login = await request.post(accountPaths.login, {
    data: { login_type: 'native', email: account.email, password: account.password },
  });
  const { access } = tokenPair.parse(await login.json());
  const dayMs = 24 * 60 * 60 * 1000;
  for (let day = 0; day <= 30; day += 1) {
    const upload = async () =>
      request.post(oralPhotoPaths.list, {
        headers: { Authorization: `Bearer ${access}` },
        data: {
          shoot_date: localDate(new Date(Date.now() - day * dayMs)),
          photo_type: day % 3 === 0 ? 'Photo' : 'X-ray',
          note: day % 2 === 0 ? 'Check-up' : '',
          image_link: await gradientPng(day * 8),
        },
      });
    let stored = await upload();
    if (stored.status() === 429) {
      await page.waitForTimeout(Number(stored.headers()['retry-after'] ?? '60') * 1000 + 1000);
      stored = await upload();
    }
    if (stored.status() !== 201) throw new Error(await stored.text());
  }
  await logIn(page, account);
  await page.goto('/oral-photo');
  const loadMore = page.getByRole('button', { name: 'Load more photos and X-rays' });
  await loadMore.waitFor();
  await shoot(page, 'photo-list-load-more', loadMore);
});
