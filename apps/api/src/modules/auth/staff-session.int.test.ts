import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountPaths, problemTypes, type TokenPair } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { staffFactories } from '#api-test/staff';
import { staffIdleMinutes } from './session.service';
import { accessTokenLifetimeSeconds } from './token.service';

const minute = 60_000;
let t: TestApp;
let members: ReturnType<typeof factories>;
let staff: ReturnType<typeof staffFactories>;

beforeAll(async () => {
  t = await buildTestApp();
  members = factories(t);
  staff = staffFactories(t);
});
afterAll(() => t.close());

describe('staff sessions', () => {
  it(`end after ${String(staffIdleMinutes)} idle minutes, while a member’s go on`, async () => {
    expect(accessTokenLifetimeSeconds).toBeLessThanOrEqual(staffIdleMinutes * 60);
    const practitioner = await staff.loggedInStaff('practitioner');
    const member = await members.loggedInMember();
    const refresh = (tokens: TokenPair) =>
      t.request('POST', accountPaths.refresh, { body: { refresh: tokens.refresh } });

    t.clock.advance((staffIdleMinutes - 1) * minute);
    const kept = await refresh(practitioner.tokens);
    expect(kept.statusCode).toBe(200);
    const rotated = kept.json<TokenPair>();

    t.clock.advance(staffIdleMinutes * minute + 1);
    const ended = await refresh(rotated);
    expect(ended.statusCode).toBe(401);
    expect(ended.json()).toMatchObject({
      type: problemTypes.sessionIdle,
      detail: `You were signed out after ${String(staffIdleMinutes)} minutes without activity. Please log in again.`,
    });
    // The member, idle as long, is still signed in (their limit is 30 minutes).
    expect((await refresh(member.tokens)).statusCode).toBe(200);
  });
});
