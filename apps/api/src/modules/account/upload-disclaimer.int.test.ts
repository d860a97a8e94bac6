import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountPaths, type Account } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';

let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
});
afterAll(() => t.close());

const accepted = async (access: string) =>
  (await t.request('GET', accountPaths.account, { token: access })).json<Account>()
    .upload_disclaimer_accepted_at;
const accept = (access: string) =>
  t.request('PUT', accountPaths.uploadDisclaimer, { token: access });

describe('PUT /api/account/upload-disclaimer/ (docs/decisions/upload-disclaimer.md)', () => {
  it('records the acceptance once per member, keeps the first time, and touches nobody else', async () => {
    const ann = await factory.loggedInMember();
    const bob = await factory.loggedInMember();
    expect(await accepted(ann.tokens.access)).toBeNull();

    const first = await accept(ann.tokens.access);
    expect(first.statusCode).toBe(200);
    const firstTime = first.json<Account>().upload_disclaimer_accepted_at;
    expect(firstTime).toBe(t.clock.now().toISOString());

    t.clock.advance(60_000);
    const again = await accept(ann.tokens.access);
    expect(again.json<Account>().upload_disclaimer_accepted_at).toBe(firstTime);
    expect(await accepted(ann.tokens.access)).toBe(firstTime);
    expect(await accepted(bob.tokens.access)).toBeNull();
  });

  it('needs a login', async () => {
    expect((await t.request('PUT', accountPaths.uploadDisclaimer)).statusCode).toBe(401);
  });
});
