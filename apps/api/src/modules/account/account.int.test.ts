import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accountPaths, type Account } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { newestAuditRow } from '#api-test/support/audit-rows';
import { statementsOf } from '#api-test/support/query-counter';
import { factories } from '#api-test/factories';
import { socialAccounts, users } from '#api/db/schema';
import { AccountRepository } from './account.repository';

let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
});
afterAll(() => t.close());

const getAccount = (access: string) => t.request('GET', accountPaths.account, { token: access });
const putAccount = (access: string, body: unknown) =>
  t.request('PUT', accountPaths.account, { token: access, body });

describe('GET /api/account/', () => {
  it('answers the logged-in member’s own account and nobody else’s', async () => {
    const ann = await factory.loggedInMember({ username: 'Ann' });
    const bob = await factory.loggedInMember({ username: 'Bob' });
    expect((await getAccount(ann.tokens.access)).json<Account>()).toMatchObject({
      id: ann.id,
      username: 'Ann',
    });
    expect((await getAccount(bob.tokens.access)).json<Account>()).toMatchObject({
      id: bob.id,
      username: 'Bob',
    });
  });

  it('answers without the trailing slash too', async () => {
    const member = await factory.loggedInMember();
    const res = await t.request('GET', '/api/account', { token: member.tokens.access });
    expect(res.statusCode).toBe(200);
  });

  it('needs a login', async () => {
    const res = await t.request('GET', accountPaths.account);
    expect(res.statusCode).toBe(401);
  });

  it('reads the member, their storage and every linked account in one statement after the session check', async () => {
    const member = await factory.loggedInMember();
    const linkedAt = t.clock.now();
    for (const provider of ['google', 'apple'] as const) {
      await t.db.insert(socialAccounts).values({
        userId: member.id,
        provider,
        subject: `${provider}-subject`,
        email: `member@${provider}.example`,
        linkedAt,
      });
    }
    let res: Awaited<ReturnType<typeof getAccount>> | undefined;
    const statements = await statementsOf(t.db, async () => {
      res = await getAccount(member.tokens.access);
    });
    expect(statements).toHaveLength(2);
    expect(res?.json<Account>()).toMatchObject({
      google_account: { email: 'member@google.example' },
      apple_account: { email: 'member@apple.example' },
      facebook_account: null,
      storage_used_bytes: 0,
    });
  });
});

describe('PUT /api/account/', () => {
  it('changes name and phone, ignores every other field and answers the merged account', async () => {
    const member = await factory.loggedInMember({ username: 'Before', phone: '+12025550143' });
    const before = (await getAccount(member.tokens.access)).json<Account>();
    // The web app sends the whole user object back (docs/product/accounts.md#account-calls).
    const res = await putAccount(member.tokens.access, {
      ...before,
      id: '00000000-0000-4000-8000-000000000000',
      email: 'someone-else@example.com',
      customer_level: 'Platinum',
      role: 'clinic_admin',
      points: 999_999,
      points_expired_at: '2999-12-31T00:00:00.000Z',
      google_account: { email: 'x@gmail.com', social_media_account: '1' },
      password: 'an-attempt-to-set-it',
      username: 'After',
      phone: '+44 20 7946 0958',
    });
    expect(res.statusCode).toBe(200);
    const expected = { ...before, username: 'After', phone: '+442079460958' };
    expect(res.json()).toEqual(expected);
    expect((await getAccount(member.tokens.access)).json()).toEqual(expected);
    // The password did not change either.
    await expect(factory.login(member)).resolves.toHaveProperty('access');
  });

  it('keeps the phone when only the name is sent, and clears it when sent empty', async () => {
    const member = await factory.loggedInMember({ phone: '+12025550143' });
    const nameOnly = await putAccount(member.tokens.access, { username: 'Renamed' });
    expect(nameOnly.json()).toMatchObject({ username: 'Renamed', phone: '+12025550143' });
    const cleared = await putAccount(member.tokens.access, { phone: '' });
    expect(cleared.json()).toMatchObject({ username: 'Renamed', phone: null });
  });

  it('answers the account unchanged when nothing editable is sent', async () => {
    const member = await factory.loggedInMember();
    const before = (await getAccount(member.tokens.access)).json<Account>();
    const res = await putAccount(member.tokens.access, { email: 'new@example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(before);
  });

  it.each([
    ['username', '', 'Name is required.'],
    ['username', 'x'.repeat(101), 'Name must be at most 100 characters.'],
    ['phone', 'call me', 'Enter a valid phone number.'],
  ])('refuses %s = %j with a field error', async (field, value, message) => {
    const member = await factory.loggedInMember();
    const res = await putAccount(member.tokens.access, { [field]: value });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errors: { [field]: [message] } });
  });

  it('needs a login', async () => {
    expect(
      (await t.request('PUT', accountPaths.account, { body: { username: 'X' } })).statusCode,
    ).toBe(401);
  });
});

describe('health record details', () => {
  const details = {
    given_name: 'Ann Marie',
    family_name: 'Lee',
    birth_date: '1984-02-29',
    sex: 'female',
  } as const;

  it('are none until set, then are kept, answered and recorded in the activity', async () => {
    const member = await factory.loggedInMember();
    expect((await getAccount(member.tokens.access)).json()).toMatchObject({
      given_name: null,
      family_name: null,
      birth_date: null,
      sex: null,
    });
    const res = await putAccount(member.tokens.access, details);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject(details);
    expect((await getAccount(member.tokens.access)).json()).toMatchObject(details);
    expect(await newestAuditRow(t, member.id)).toMatchObject({
      action: 'change',
      resourceType: 'account',
      resourceId: member.id,
      result: 'success',
    });
  });

  it('are cleared one by one by an empty value or null, and kept when absent', async () => {
    const member = await factory.loggedInMember();
    await putAccount(member.tokens.access, details);
    const res = await putAccount(member.tokens.access, { given_name: '', birth_date: null });
    expect(res.json()).toMatchObject({
      given_name: null,
      family_name: 'Lee',
      birth_date: null,
      sex: 'female',
    });
    // The web app sends the whole account back with one change: the others stay as they were.
    const whole = { ...res.json<Account>(), sex: '' };
    expect((await putAccount(member.tokens.access, whole)).json()).toMatchObject({
      family_name: 'Lee',
      sex: null,
    });
  });

  it.each([
    ['birth_date', '29/02/1984', 'Enter a date as YYYY-MM-DD.'],
    ['birth_date', '1983-02-29', 'Enter a date as YYYY-MM-DD.'],
    ['birth_date', '1850-01-01', 'Enter a date from 1900 to 2199.'],
    ['sex', 'F', 'Choose male, female, other or unknown.'],
    ['given_name', 'x'.repeat(101), 'Given name must be at most 100 characters.'],
    ['family_name', 'x'.repeat(101), 'Family name must be at most 100 characters.'],
  ])('refuse %s = %j with a problem and change nothing', async (field, value, message) => {
    const member = await factory.loggedInMember();
    await putAccount(member.tokens.access, details);
    const res = await putAccount(member.tokens.access, { ...details, [field]: value });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ errors: { [field]: [message] } });
    expect((await getAccount(member.tokens.access)).json()).toMatchObject(details);
  });

  it('refuse a birth date after today, and take today', async () => {
    const member = await factory.loggedInMember();
    await putAccount(member.tokens.access, details);
    const tomorrow = new Date(t.clock.now().getTime() + 2 * 24 * 3600_000)
      .toISOString()
      .slice(0, 10);
    const refused = await putAccount(member.tokens.access, { birth_date: tomorrow });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      detail: 'Date of birth cannot be in the future.',
      errors: { birth_date: ['Date of birth cannot be in the future.'] },
    });
    expect((await getAccount(member.tokens.access)).json()).toMatchObject(details);
    const today = t.clock.now().toISOString().slice(0, 10);
    const taken = await putAccount(member.tokens.access, { birth_date: today });
    expect(taken.json()).toMatchObject({ birth_date: today });
  });

  it('are the member’s own: another member sees and changes only theirs', async () => {
    const ann = await factory.loggedInMember();
    const bob = await factory.loggedInMember();
    await putAccount(ann.tokens.access, details);
    // Bob's PUT names Ann's id; it changes Bob's account, whose answer holds none of Ann's.
    const res = await putAccount(bob.tokens.access, { id: ann.id, sex: 'male' });
    expect(res.json()).toMatchObject({
      id: bob.id,
      given_name: null,
      birth_date: null,
      sex: 'male',
    });
    expect((await getAccount(ann.tokens.access)).json()).toMatchObject(details);
  });
});

describe('DELETE /api/account/', () => {
  it('deactivates: the live access token is refused at once, refresh and login too, data kept', async () => {
    const member = await factory.loggedInMember({ username: 'Leaving' });
    const res = await t.request('DELETE', accountPaths.account, { token: member.tokens.access });
    expect(res.statusCode).toBe(204);

    expect((await getAccount(member.tokens.access)).statusCode).toBe(401);
    const refreshed = await t.request('POST', accountPaths.refresh, {
      body: { refresh: member.tokens.refresh },
    });
    expect(refreshed.statusCode).toBe(401);
    const login = await t.request('POST', accountPaths.login, {
      body: { login_type: 'native', email: member.email, password: member.password },
    });
    expect(login.statusCode).toBe(403);

    const row = await new AccountRepository(t.db).findUserById(member.id);
    expect(row).toMatchObject({ username: 'Leaving', email: member.email });
    expect(row?.deactivatedAt).toBeInstanceOf(Date);
  });

  it('does not touch other members', async () => {
    const leaving = await factory.loggedInMember();
    const staying = await factory.loggedInMember();
    await t.request('DELETE', accountPaths.account, { token: leaving.tokens.access });
    expect((await getAccount(staying.tokens.access)).statusCode).toBe(200);
  });

  it('needs a login', async () => {
    expect((await t.request('DELETE', accountPaths.account)).statusCode).toBe(401);
  });
});

describe('social accounts (not configured on this server)', () => {
  it('says linking is not available instead of pretending', async () => {
    const member = await factory.loggedInMember();
    const res = await t.request('POST', accountPaths.socialMediaAccount, {
      token: member.tokens.access,
      body: { login_type: 'apple', token: 'an-identity-token' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      detail: 'Sign-in with Apple is not available on this server.',
    });
  });

  it('answers 404 when unlinking an account that is not linked', async () => {
    const member = await factory.loggedInMember();
    const res = await t.request('DELETE', `${accountPaths.socialMediaAccount}google/12345/`, {
      token: member.tokens.access,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      detail: 'No Google account is linked to your profile.',
    });
  });

  it('refuses an unknown provider', async () => {
    const member = await factory.loggedInMember();
    const res = await t.request('DELETE', `${accountPaths.socialMediaAccount}myspace/1/`, {
      token: member.tokens.access,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errors: { provider: [expect.any(String)] } });
  });

  it('needs a login', async () => {
    const res = await t.request('POST', accountPaths.socialMediaAccount, {
      body: { login_type: 'google', token: 'x' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('the users table', () => {
  it('holds no plain password', async () => {
    const member = await factory.member();
    const [row] = await t.db.select().from(users).where(eq(users.id, member.id));
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row?.passwordHash).not.toContain(member.password);
  });
});
