import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { accountPaths, problemContentType, sessionPaths } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, type TestMember } from '#api-test/factories';

let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  t = await buildTestApp({
    env: {
      RATE_LIMIT_WINDOW_SECONDS: '900',
      RATE_LIMIT_PER_IP: '30',
      RATE_LIMIT_PER_EMAIL: '5',
      LOGIN_LOCK_AFTER_FAILURES: '3',
      LOGIN_LOCK_SECONDS: '60',
      LOGIN_LOCK_MAX_SECONDS: '240',
    },
  });
  factory = factories(t);
});
afterAll(() => t.close());

let nextAddress = 1;
const newAddress = () => `203.0.113.${nextAddress++}`;

const loginTo = (app: TestApp, email: string, password: string, remoteAddress: string) =>
  app.app.inject({
    method: 'POST',
    url: accountPaths.login,
    payload: { login_type: 'native', email, password },
    remoteAddress,
  });
const login = (email: string, password: string, remoteAddress: string) =>
  loginTo(t, email, password, remoteAddress);
const right = (member: TestMember, address: string) =>
  login(member.email, member.password, address);
const wrong = (member: TestMember, address: string) =>
  login(member.email, 'not-the-password', address);

function expectLocked(res: LightMyRequestResponse, seconds: number) {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.headers['content-type']).toContain(problemContentType);
  expect(Number(res.headers['retry-after'])).toBe(seconds);
}

describe('login throttling counts failures per e-mail and address', () => {
  it('lets ten successful logins from one address through', async () => {
    const member = await factory.member();
    const address = newAddress();
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await right(member, address)).statusCode).toBe(200);
    }
  });

  it('does not lock the owner out because a stranger failed from another address', async () => {
    const member = await factory.member();
    const stranger = newAddress();
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await wrong(member, stranger)).statusCode).toBe(401);
    }
    for (let attempt = 0; attempt < 5; attempt++) {
      expectLocked(await wrong(member, stranger), 60);
    }
    expect((await right(member, newAddress())).statusCode).toBe(200);
  });

  it('locks a pair after repeated failures, each lock twice as long, up to the cap', async () => {
    const member = await factory.member();
    const address = newAddress();
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await wrong(member, address)).statusCode).toBe(401);
    }
    // Locked: even the right password waits, so guessing gains nothing.
    expectLocked(await right(member, address), 60);
    t.clock.advance(60_000);
    expect((await wrong(member, address)).statusCode).toBe(401);
    expectLocked(await wrong(member, address), 120);
    t.clock.advance(120_000);
    expect((await wrong(member, address)).statusCode).toBe(401);
    expectLocked(await right(member, address), 240);
    t.clock.advance(240_000);
    expect((await wrong(member, address)).statusCode).toBe(401);
    expectLocked(await right(member, address), 240);
  });

  it('forgets the failures after a successful login', async () => {
    const member = await factory.member();
    const address = newAddress();
    for (let attempt = 0; attempt < 2; attempt++) {
      expect((await wrong(member, address)).statusCode).toBe(401);
    }
    expect((await right(member, address)).statusCode).toBe(200);
    for (let attempt = 0; attempt < 2; attempt++) {
      expect((await wrong(member, address)).statusCode).toBe(401);
    }
    expect((await right(member, address)).statusCode).toBe(200);
  });

  it('counts unknown e-mails the same way, so they reveal nothing', async () => {
    const address = newAddress();
    for (let attempt = 0; attempt < 3; attempt++) {
      expect((await login('nobody@example.com', 'whatever-1', address)).statusCode).toBe(401);
    }
    expectLocked(await login('NOBODY@example.com', 'whatever-1', address), 60);
  });
});

/** `count` different client addresses, none used by the tests above. */
const addresses = (count: number) => Array.from({ length: count }, (_, i) => `198.51.100.${i}`);

/** How many answers had this status. */
const countOf = (answers: LightMyRequestResponse[], status: number) =>
  answers.filter((res) => res.statusCode === status).length;

describe('concurrent guesses are counted before they are checked', () => {
  it('checks at most 3 of 100 concurrent wrong passwords of one pair, then refuses the right one', async () => {
    // A longer timeout: a hundred requests through PGlite's one connection take a while.
    // An address limit above 100, so that only the pair's lock stands in the way.
    const roomy = await buildTestApp({
      env: { RATE_LIMIT_PER_IP: '1000', LOGIN_LOCK_AFTER_FAILURES: '3' },
    });
    try {
      const member = await factories(roomy).member();
      const address = newAddress();
      const answers = await Promise.all(
        Array.from({ length: 100 }, () =>
          loginTo(roomy, member.email, 'not-the-password', address),
        ),
      );
      expect(countOf(answers, 401)).toBe(3);
      expect(countOf(answers, 429)).toBe(97);
      expectLocked(await loginTo(roomy, member.email, member.password, address), 60);
    } finally {
      await roomy.close();
    }
  }, 60_000);

  it('checks at most the per-address limit of 100 concurrent wrong logins to different e-mails', async () => {
    const address = newAddress();
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => login(`guess-${i}@example.com`, 'whatever-1', address)),
    );
    expect(countOf(answers, 401)).toBe(30);
    expect(countOf(answers, 429)).toBe(70);
  });

  it('locks the password re-check per member, whatever the address, for every route that asks', async () => {
    const member = await factory.loggedInMember();
    const recheck = (password: string, remoteAddress: string) =>
      t.app.inject({
        method: 'POST',
        url: accountPaths.reauthenticate,
        headers: { authorization: `Bearer ${member.tokens.access}` },
        payload: { password },
        remoteAddress,
      });
    const answers = await Promise.all(
      addresses(100).map((address) => recheck('not-the-password', address)),
    );
    expect(countOf(answers, 400)).toBe(3);
    expect(countOf(answers, 429)).toBe(97);
    // The right password waits too, on the re-check and on the password change that asks for it.
    expectLocked(await recheck(member.password, newAddress()), 60);
    const change = await t.app.inject({
      method: 'POST',
      url: sessionPaths.changePassword,
      headers: { authorization: `Bearer ${member.tokens.access}` },
      payload: {
        current_password: member.password,
        password: 'Molar-new-one-1',
        confirm_password: 'Molar-new-one-1',
      },
      remoteAddress: newAddress(),
    });
    expectLocked(change, 60);
    t.clock.advance(60_000);
    expect((await recheck(member.password, newAddress())).statusCode).toBe(204);
  });
});
