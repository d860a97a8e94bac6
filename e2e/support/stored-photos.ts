import sharp from 'sharp';
import type { APIRequestContext } from '@playwright/test';
import {
  accountPaths,
  oralPhotoPaths,
  tokenPair,
  type OralPhoto,
  type PhotoType,
} from '@dental/contracts';
import { localDate } from './dates';
import { expect, type TestAccount } from './fixtures';

/**
 * Stores an X-ray of today (or of `shootDate`) through the API, as the member, so that a journey
 * starts from it (the journey is about what happens to it, not about adding it). A plain 640×480
 * PNG.
 */
export async function storeXray(
  request: APIRequestContext,
  account: TestAccount,
  note = '',
  shootDate = localDate(),
): Promise<OralPhoto> {
  const png = await sharp({
    create: { width: 640, height: 480, channels: 3, background: { r: 30, g: 60, b: 90 } },
  })
    .png()
    .toBuffer();
  return storeImage(request, account, { image: png, photoType: 'X-ray', note, shootDate });
}

/** Stores `image` (a PNG or JPEG) as the member's photo or X-ray through the API. */
export async function storeImage(
  request: APIRequestContext,
  account: TestAccount,
  {
    image,
    photoType,
    note = '',
    shootDate = localDate(),
  }: { image: Buffer; photoType: PhotoType; note?: string; shootDate?: string },
): Promise<OralPhoto> {
  const login = await request.post(accountPaths.login, {
    data: { login_type: 'native', email: account.email, password: account.password },
  });
  const { access } = tokenPair.parse(await login.json());
  const type = image.subarray(0, 4).toString('hex') === '89504e47' ? 'image/png' : 'image/jpeg';
  const response = await request.post(oralPhotoPaths.list, {
    headers: { authorization: `Bearer ${access}` },
    data: {
      shoot_date: shootDate,
      photo_type: photoType,
      note,
      image_link: `data:${type};base64,${image.toString('base64')}`,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as OralPhoto;
}
