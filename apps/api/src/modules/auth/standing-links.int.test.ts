import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountPaths,
  calendarFeedCreated,
  calendarPaths,
  dataExport,
  dataExportPaths,
  dataExportStarted,
  sessionPaths,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, strongPassword } from '#api-test/factories';
import { fetchLink } from '#api-test/support/files';
import { AuthRepository } from './auth.repository';
import { hashOpaqueToken, newOpaqueToken } from './token.service';

/**
 * The calendar feed URL and the data export's download link open the member's data without a
 * session; they end with the sessions on 'Sign out everywhere else', a password change and a
 * password reset (docs/decisions/calendar-export.md, docs/decisions/data-export.md).
 */
let t: TestApp;
let factory: ReturnType<typeof factories>;

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
});

afterAll(() => t.close());

type Member = Awaited<ReturnType<ReturnType<typeof factories>['loggedInMember']>>;

/** The feed's path on this server, from the URL the API answered. */
async function newFeed(member: Member): Promise<string> {
  const res = await t.request('POST', calendarPaths.feed, { token: member.tokens.access });
  expect(res.statusCode, res.body).toBe(201);
  return new URL(calendarFeedCreated.parse(res.json()).url).pathname;
}

/** A finished export's download link (the job run here, as its worker would). */
async function downloadLink(member: Member): Promise<string> {
  await factory.oralPhoto(member);
  const started = await t.request('POST', dataExportPaths.root, { token: member.tokens.access });
  const { id } = dataExportStarted.parse(started.json());
  await t.services.dataExports.run(id);
  const res = await t.request('GET', dataExportPaths.one(id), { token: member.tokens.access });
  const link = dataExport.parse(res.json()).download_url;
  if (link === null) throw new Error('The export has no link');
  return link;
}

/** A member with a working feed URL and download link. */
async function memberWithLinks() {
  const member = await factory.loggedInMember();
  const feed = await newFeed(member);
  const download = await downloadLink(member);
  expect((await t.request('GET', feed)).statusCode).toBe(200);
  expect((await fetchLink(t, download)).statusCode).toBe(200);
  return { member, feed, download };
}

async function expectEnded({ feed, download }: { feed: string; download: string }, member: Member) {
  const oldFeed = await t.request('GET', feed);
  expect(oldFeed.statusCode).toBe(404);
  expect(oldFeed.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect((await fetchLink(t, download)).statusCode).toBe(404);
  // One call makes a new feed URL, and it works.
  const renewed = await newFeed(member);
  expect((await t.request('GET', renewed)).statusCode).toBe(200);
}

describe('links that open the record without a session', () => {
  it('end with “Sign out everywhere else”', async () => {
    const links = await memberWithLinks();
    const res = await t.request('DELETE', sessionPaths.sessions, {
      token: links.member.tokens.access,
    });
    expect(res.statusCode, res.body).toBe(204);
    await expectEnded(links, links.member);
  });

  it('end with a password change', async () => {
    const links = await memberWithLinks();
    const password = strongPassword();
    const res = await t.request('POST', sessionPaths.changePassword, {
      token: links.member.tokens.access,
      body: { current_password: links.member.password, password, confirm_password: password },
    });
    expect(res.statusCode, res.body).toBe(200);
    await expectEnded(links, links.member);
  });

  it('end with a password reset', async () => {
    const links = await memberWithLinks();
    const key = newOpaqueToken();
    const now = t.clock.now();
    await new AuthRepository(t.db).insertPasswordResetKey({
      userId: links.member.id,
      keyHash: hashOpaqueToken(key),
      createdAt: now,
      expiresAt: new Date(now.getTime() + 60_000),
    });
    const password = strongPassword();
    const res = await t.request('POST', accountPaths.updatePassword, { body: { key, password } });
    expect(res.statusCode, res.body).toBe(200);
    const signedIn = {
      ...links.member,
      tokens: await factory.login({ ...links.member, password }),
    };
    await expectEnded(links, signedIn);
  });

  it('stay when the member only signs out on one device', async () => {
    const links = await memberWithLinks();
    const res = await t.request('POST', accountPaths.logout, {
      body: { refresh: links.member.tokens.refresh },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    expect((await t.request('GET', links.feed)).statusCode).toBe(200);
    expect((await fetchLink(t, links.download)).statusCode).toBe(200);
  });
});
