import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountPaths, endOfYear, plans, problemContentType } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, strongPassword, uniqueEmail } from '#api-test/factories';
import { commonPasswordMessage } from './password.service';
import { emailTakenMessage } from './registration.service';

let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
});
afterAll(() => t.close());

const register = (body: Record<string, unknown>) =>
  t.request('POST', accountPaths.register, { body });

const validSignUp = () => ({
  email: uniqueEmail(),
  phone: '+1 202 555 0143',
  username: 'Ann Molar',
  password: strongPassword(),
});

async function login(email: string, password: string) {
  const res = await t.request('POST', accountPaths.login, {
    body: { login_type: 'native', email, password },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ access: string; refresh: string }>().access;
}

describe('POST /api/account/register/', () => {
  it('creates a Silver member with the sign-up bonus expiring at the end of the year', async () => {
    const signUp = validSignUp();
    const res = await register(signUp);
    expect(res.statusCode).toBe(201);
    const created = res.json<{ id: string; email: string }>();
    expect(created).toEqual({ id: expect.any(String) as string, email: signUp.email });

    const access = await login(signUp.email, signUp.password);
    const account = await t.request('GET', accountPaths.account, { token: access });
    expect(account.json()).toEqual({
      id: created.id,
      username: 'Ann Molar',
      email: signUp.email,
      phone: '+12025550143',
      customer_level: 'Silver',
      points: plans.Silver.signUpBonusPoints,
      points_expired_at: endOfYear(t.clock.now()).toISOString(),
      google_account: null,
      apple_account: null,
      facebook_account: null,
      storage_used_bytes: 0,
      storage_quota_bytes: plans.Silver.storageBytes,
      upload_disclaimer_accepted_at: null,
      role: 'member',
      // Confirmed once the e-mailed link is opened (docs/decisions/email-confirmation.md).
      email_confirmed: false,
      pending_email: null,
      // Health record details are optional and never asked at sign-up.
      given_name: null,
      family_name: null,
      birth_date: null,
      sex: null,
    });
    expect(plans.Silver.signUpBonusPoints).toBe(500);
  });

  it('stores phone numbers in E.164 whatever their spacing', async () => {
    const signUp = { ...validSignUp(), phone: '+44 20 7946 0958' };
    expect((await register(signUp)).statusCode).toBe(201);
    const account = await t.request('GET', accountPaths.account, {
      token: await login(signUp.email, signUp.password),
    });
    expect(account.json<{ phone: string }>().phone).toBe('+442079460958');
  });

  it.each([
    ['an empty phone', ''],
    ['no phone', undefined],
    ['a null phone', null],
  ])('accepts %s and stores none', async (_label, phone) => {
    const signUp = { ...validSignUp(), phone };
    expect((await register(signUp)).statusCode).toBe(201);
    const account = await t.request('GET', accountPaths.account, {
      token: await login(signUp.email, signUp.password),
    });
    expect(account.json<{ phone: string | null }>().phone).toBeNull();
  });

  it.each([
    ['email', 'not-an-e-mail', 'Enter a valid e-mail address.'],
    ['email', '', 'Enter a valid e-mail address.'],
    ['email', undefined, 'Enter a valid e-mail address.'],
    ['email', `${'a'.repeat(250)}@example.com`, undefined],
    ['phone', '12345', 'Enter a valid phone number.'],
    ['phone', '+1 555', 'Enter a valid phone number.'],
    ['username', '', 'Name is required.'],
    ['username', '   ', 'Name is required.'],
    ['username', undefined, 'This field is required.'],
    ['username', 'x'.repeat(101), 'Name must be at most 100 characters.'],
    ['password', 'short', 'Password must be at least 8 characters.'],
    ['password', undefined, 'This field is required.'],
    ['password', 'x'.repeat(129), 'Password must be at most 128 characters.'],
  ])('refuses %s = %j with a field error', async (field, value, message) => {
    const res = await register({ ...validSignUp(), [field]: value });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain(problemContentType);
    const body = res.json<{ detail: string; errors: Record<string, string[]> }>();
    expect(Object.keys(body.errors)).toEqual([field]);
    if (message !== undefined) expect(body.errors[field]).toEqual([message]);
    expect(body.detail.length).toBeGreaterThan(0);
  });

  it('refuses a field of the wrong type without a server error', async () => {
    const res = await register({ ...validSignUp(), username: 42 });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toHaveProperty('username');
  });

  it.each(['password', 'Password1', 'qwertyuiop', 'iloveyou'])(
    'refuses the common password %j',
    async (password) => {
      const res = await register({ ...validSignUp(), password });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        detail: commonPasswordMessage,
        errors: { password: [commonPasswordMessage] },
      });
    },
  );

  it('refuses an e-mail already registered, in any letter case', async () => {
    const member = await factory.member({ email: uniqueEmail('Taken') });
    for (const email of [member.email, member.email.toUpperCase(), member.email.toLowerCase()]) {
      const res = await register({ ...validSignUp(), email });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        status: 409,
        detail: emailTakenMessage,
        errors: { email: [emailTakenMessage] },
      });
    }
  });

  it('lets only one of two simultaneous sign-ups with one address through', async () => {
    const email = uniqueEmail();
    const answers = await Promise.all([
      register({ ...validSignUp(), email }),
      register({ ...validSignUp(), email: email.toUpperCase() }),
    ]);
    expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409]);
  });
});
