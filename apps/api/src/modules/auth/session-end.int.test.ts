import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountPaths, problemTypes, type TokenPair } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, type TestMember } from '#api-test/factories';
import { statementsOf } from '#api-test/support/query-counter';
import { loginRequiredMessage, sessionExpiredMessage } from '#api/plugins/auth';
import { AuthRepository } from './auth.repository';
import { reauthenticationRequiredMessage } from './session.service';
import { wrongPasswordMessage } from './sign-in';

// Shorter than the defaults so that both limits fall inside one access token's 15 minutes.
const idleMinutes = 5;
const maxHours = 1;
const minute = 60 * 1000;

let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  t = await buildTestApp({
    env: { SESSION_IDLE_MINUTES: String(idleMinutes), SESSION_MAX_HOURS: String(maxHours) },
  });
  factory = factories(t);
});
afterAll(() => t.close());

const getAccount = (access: string) => t.request('GET', accountPaths.account, { token: access });
const refresh = (token: string) =>
  t.request('POST', accountPaths.refresh, { body: { refresh: token } });
const logout = (token: string) =>
  t.request('POST', accountPaths.logout, { body: { refresh: token } });
const deactivate = (access: string) => t.request('DELETE', accountPaths.account, { token: access });
const reauthenticate = (access: string, password: unknown) =>
  t.request('POST', accountPaths.reauthenticate, { token: access, body: { password } });

/** Moves the clock on by `minutes` in steps shorter than the idle time, using each token. */
async function keepBusy(minutes: number, ...accesses: string[]) {
  for (let left = minutes; left > 0; left -= 4) {
    t.clock.advance(Math.min(4, left) * minute);
    for (const access of accesses) expect((await getAccount(access)).statusCode).toBe(200);
  }
}

function expectEnded(res: Awaited<ReturnType<typeof getAccount>>, detail = sessionExpiredMessage) {
  expect(res.statusCode).toBe(401);
  expect(res.json()).toMatchObject({ type: 'about:blank', status: 401, detail });
}

describe('an access token of a session that ended', () => {
  it('is refused right after logout, while the member’s other session goes on', async () => {
    const member = await factory.member();
    const laptop = await factory.login(member);
    const phone = await factory.login(member);
    expect((await getAccount(laptop.access)).statusCode).toBe(200);

    expect((await logout(laptop.refresh)).statusCode).toBe(204);
    expectEnded(await getAccount(laptop.access));
    expect((await getAccount(phone.access)).statusCode).toBe(200);
  });

  it('is refused once refresh-token reuse ended the session, the rotated one too', async () => {
    const { tokens } = await factory.loggedInMember();
    const rotated = (await refresh(tokens.refresh)).json<TokenPair>();
    expect((await getAccount(rotated.access)).statusCode).toBe(200);

    expect((await refresh(tokens.refresh)).statusCode).toBe(401);
    expectEnded(await getAccount(tokens.access));
    expectEnded(await getAccount(rotated.access));
  });
});

describe('idle timeout', () => {
  it('ends a session unused for the idle time; any use in between keeps it going', async () => {
    const { tokens } = await factory.loggedInMember();
    t.clock.advance((idleMinutes - 1) * minute);
    expect((await getAccount(tokens.access)).statusCode).toBe(200);
    // Longer after the sign-in than the idle time, but not after the last use.
    t.clock.advance((idleMinutes - 1) * minute);
    expect((await getAccount(tokens.access)).statusCode).toBe(200);

    t.clock.advance(idleMinutes * minute);
    const res = await getAccount(tokens.access);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      type: problemTypes.sessionIdle,
      title: 'Unauthorized',
      status: 401,
      detail: `You were signed out after ${idleMinutes} minutes without activity. Please log in again.`,
    });
  });

  it('is noticed by the refresh too, which then ends the session for good', async () => {
    const { tokens } = await factory.loggedInMember();
    t.clock.advance(idleMinutes * minute);
    const res = await refresh(tokens.refresh);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ type: problemTypes.sessionIdle });

    const ended = await refresh(tokens.refresh);
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toMatchObject({ type: 'about:blank', detail: sessionExpiredMessage });
  });

  it('writes a use at most once a minute, inside the one authentication query', async () => {
    const member = await factory.loggedInMember();
    const sessions = new AuthRepository(t.db);
    const sessionId = sessionIdOf(member);
    const signedIn = (await sessions.findSession(member.id, sessionId))?.lastUsedAt;

    t.clock.advance(30 * 1000);
    await getAccount(member.tokens.access);
    expect((await sessions.findSession(member.id, sessionId))?.lastUsedAt).toEqual(signedIn);

    t.clock.advance(31 * 1000);
    await getAccount(member.tokens.access);
    expect((await sessions.findSession(member.id, sessionId))?.lastUsedAt).toEqual(t.clock.now());
  });
});

describe('absolute lifetime', () => {
  it('ends a busy session when its lifetime is over, and refresh cannot extend it', async () => {
    let tokens = (await factory.loggedInMember()).tokens;
    // Busy all along: a refresh and a call every 4 minutes.
    for (let elapsed = 4; elapsed < maxHours * 60; elapsed += 4) {
      t.clock.advance(4 * minute);
      const next = await refresh(tokens.refresh);
      expect(next.statusCode).toBe(200);
      tokens = next.json<TokenPair>();
      expect((await getAccount(tokens.access)).statusCode).toBe(200);
    }
    t.clock.advance(4 * minute);
    const expected = {
      type: problemTypes.sessionLifetime,
      status: 401,
      detail: `Your session reached its ${maxHours}-hour limit. Please log in again.`,
    };
    const res = await getAccount(tokens.access);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject(expected);
    const refused = await refresh(tokens.refresh);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject(expected);
  });
});

describe('DELETE /api/account/ needs a recent sign-in', () => {
  /** A member whose sign-in is 11 minutes old, with a session kept busy. */
  async function signedInLongAgo() {
    const member = await factory.loggedInMember();
    await keepBusy(11, member.tokens.access);
    return member;
  }

  it('deactivates within 10 minutes of the sign-in', async () => {
    const member = await factory.loggedInMember();
    await keepBusy(10, member.tokens.access);
    expect((await deactivate(member.tokens.access)).statusCode).toBe(204);
  });

  it('answers 403 with the re-authentication problem later, and changes nothing', async () => {
    const member = await signedInLongAgo();
    const res = await deactivate(member.tokens.access);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      type: problemTypes.reauthenticationRequired,
      title: 'Forbidden',
      status: 403,
      detail: reauthenticationRequiredMessage,
    });
    expect((await getAccount(member.tokens.access)).statusCode).toBe(200);
    expect((await new AuthRepository(t.db).findUserById(member.id))?.deactivatedAt).toBeNull();
  });

  it('deactivates after the password re-check', async () => {
    const member = await signedInLongAgo();
    const res = await reauthenticate(member.tokens.access, member.password);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    // Minutes later (before the 15-minute access token expires), the re-check still counts.
    await keepBusy(3, member.tokens.access);
    expect((await deactivate(member.tokens.access)).statusCode).toBe(204);
    expectEnded(await getAccount(member.tokens.access));
  });

  it('refuses a wrong password with a field error and still answers 403', async () => {
    const member = await signedInLongAgo();
    const res = await reauthenticate(member.tokens.access, 'not-the-password');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      detail: wrongPasswordMessage,
      errors: { password: [wrongPasswordMessage] },
    });
    expect((await deactivate(member.tokens.access)).statusCode).toBe(403);
  });

  it.each([[{}], [{ password: '' }], [{ password: 42 }]])(
    'refuses the body %j and changes nothing',
    async (body) => {
      const member = await signedInLongAgo();
      const res = await t.request('POST', accountPaths.reauthenticate, {
        token: member.tokens.access,
        body,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ errors: Record<string, string[]> }>().errors).toHaveProperty('password');
      expect((await deactivate(member.tokens.access)).statusCode).toBe(403);
    },
  );

  it('re-checks only the session it was made in, and only for its own member', async () => {
    const member = await factory.member();
    const first = await factory.login(member);
    const second = await factory.login(member);
    const other = await factory.loggedInMember();
    await keepBusy(11, first.access, second.access, other.tokens.access);

    // The other member's password does not step up this member's session, nor theirs.
    expect((await reauthenticate(first.access, other.password)).statusCode).toBe(400);
    expect((await reauthenticate(first.access, member.password)).statusCode).toBe(204);
    expect((await deactivate(second.access)).statusCode).toBe(403);
    expect((await deactivate(other.tokens.access)).statusCode).toBe(403);
  });

  it('needs a live session to re-check the password', async () => {
    const member = await factory.loggedInMember();
    expectEnded(
      await t.request('POST', accountPaths.reauthenticate, { body: { password: 'x' } }),
      loginRequiredMessage,
    );
    await logout(member.tokens.refresh);
    expectEnded(await reauthenticate(member.tokens.access, member.password));
  });
});

describe('cost of authentication', () => {
  it('is one statement per authenticated call, the recorded use included', async () => {
    const { tokens } = await factory.loggedInMember();
    // Linking a social account is refused without touching the database: what remains is
    // the authentication.
    const link = () =>
      t.request('POST', accountPaths.socialMediaAccount, {
        token: tokens.access,
        body: { login_type: 'google', token: 'a-provider-token' },
      });
    expect(await statementsOf(t.db, link)).toHaveLength(1);
    t.clock.advance(2 * minute);
    const withUse = await statementsOf(t.db, link);
    expect(withUse).toHaveLength(1);
    expect(withUse[0]).toMatch(/^with "record_use" as \(update "sessions"/);
  });
});

function sessionIdOf(member: TestMember & { tokens: TokenPair }): string {
  const verified = t.services.tokens.verifyAccessToken(member.tokens.access);
  if (verified === null) throw new Error('the test token does not verify');
  return verified.sessionId;
}
