import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountPaths, problemContentType } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { strongPassword, uniqueEmail } from '#api-test/factories';

const windowSeconds = 60;
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp({
    env: {
      RATE_LIMIT_WINDOW_SECONDS: String(windowSeconds),
      RATE_LIMIT_PER_IP: '4',
      RATE_LIMIT_PER_EMAIL: '2',
    },
  });
});
afterAll(() => t.close());

let nextAddress = 1;
/** A client address no other test has used, so each test starts with fresh per-IP counters. */
const newAddress = () => `198.51.100.${nextAddress++}`;

function post(url: string, body: Record<string, unknown>, remoteAddress: string) {
  return t.app.inject({ method: 'POST', url, payload: body, remoteAddress });
}

const loginBody = (email: string) => ({ login_type: 'native', email, password: 'wrong-password' });

function expectLimited(res: Awaited<ReturnType<typeof post>>) {
  expect(res.statusCode).toBe(429);
  expect(res.headers['content-type']).toContain(problemContentType);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
  expect(res.json()).toMatchObject({
    status: 429,
    detail: 'Too many attempts. Please try again in 1 minute.',
  });
}

describe('rate limits', () => {
  it('limits login per client address, whatever the e-mail', async () => {
    const address = newAddress();
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await post(accountPaths.login, loginBody(uniqueEmail()), address)).statusCode).toBe(
        401,
      );
    }
    expectLimited(await post(accountPaths.login, loginBody(uniqueEmail()), address));
    expect(
      (await post(accountPaths.login, loginBody(uniqueEmail()), newAddress())).statusCode,
    ).toBe(401);
  });

  it('limits the reset link check per client address, so nobody walks keys through it', async () => {
    const address = newAddress();
    const check = (from: string) =>
      post(accountPaths.checkResetKey, { key: `made-up-${String(Math.random())}` }, from);
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await check(address)).statusCode).toBe(400);
    }
    expectLimited(await check(address));
    expect((await check(newAddress())).statusCode).toBe(400);
  });

  it('opens again when the window is over', async () => {
    const email = uniqueEmail();
    await post(accountPaths.forgetPassword, { email }, newAddress());
    await post(accountPaths.forgetPassword, { email }, newAddress());
    expectLimited(await post(accountPaths.forgetPassword, { email }, newAddress()));
    t.clock.advance(windowSeconds * 1000);
    expect((await post(accountPaths.forgetPassword, { email }, newAddress())).statusCode).toBe(200);
  });

  it('limits register per e-mail and per client address', async () => {
    const email = uniqueEmail();
    const signUp = (address: string, to = email) =>
      post(
        accountPaths.register,
        { email: to, username: 'R', password: strongPassword() },
        address,
      );
    expect((await signUp(newAddress())).statusCode).toBe(201);
    expect((await signUp(newAddress())).statusCode).toBe(409);
    expectLimited(await signUp(newAddress()));

    const address = newAddress();
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await signUp(address, uniqueEmail())).statusCode).toBe(201);
    }
    expectLimited(await signUp(address, uniqueEmail()));
  });

  it('limits forget-password per e-mail and per client address', async () => {
    const email = uniqueEmail();
    const forget = (address: string, to = email) =>
      post(accountPaths.forgetPassword, { email: to }, address);
    expect((await forget(newAddress())).statusCode).toBe(200);
    expect((await forget(newAddress())).statusCode).toBe(200);
    expectLimited(await forget(newAddress()));

    const address = newAddress();
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await forget(address, uniqueEmail())).statusCode).toBe(200);
    }
    expectLimited(await forget(address, uniqueEmail()));
  });

  it('counts each route on its own', async () => {
    const email = uniqueEmail();
    await post(accountPaths.forgetPassword, { email }, newAddress());
    await post(accountPaths.forgetPassword, { email }, newAddress());
    expectLimited(await post(accountPaths.forgetPassword, { email }, newAddress()));
    const signUp = { email, username: 'R', password: strongPassword() };
    expect((await post(accountPaths.register, signUp, newAddress())).statusCode).toBe(201);
  });

  it('leaves routes without a limit alone', async () => {
    const address = newAddress();
    for (let attempt = 0; attempt < 6; attempt++) {
      const res = await post(accountPaths.refresh, { refresh: 'D'.repeat(43) }, address);
      expect(res.statusCode).toBe(401);
    }
  });
});
