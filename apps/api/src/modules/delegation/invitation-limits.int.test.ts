import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  delegateList,
  delegationInvited,
  delegationPaths,
  problemContentType,
} from '@dental/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, uniqueEmail } from '#api-test/factories';
import { isSignUpConfirmation, startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { tooManyInvitationsMessage } from '#api/plugins/rate-limit';

let t: TestApp;
let factory: ReturnType<typeof factories>;
let inbox: SmtpInbox;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await buildTestApp({ env: { SMTP_URL: inbox.url, COMPANY_NAME: 'Bright Smile' } });
  factory = factories(t);
});
afterAll(async () => {
  await t.close();
  await inbox.close();
});

type Member = Awaited<ReturnType<typeof factory.loggedInMember>>;

const day = 24 * 60 * 60 * 1000;

const invite = (member: Member, email: string) =>
  t.request('POST', delegationPaths.delegates, { token: member.tokens.access, body: { email } });

const delegatesOf = async (member: Member) =>
  delegateList.parse(
    (await t.request('GET', delegationPaths.delegates, { token: member.tokens.access })).json(),
  );

const mailsTo = (address: string) =>
  inbox.messages.filter(
    (mail) =>
      !isSignUpConfirmation(mail) &&
      [mail.to ?? []]
        .flat()
        .some((to) => to.value.some((entry) => entry.address?.toLowerCase() === address)),
  );

function expectTooManyInvitations(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.headers['content-type']).toContain(problemContentType);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(day / 1000);
  expect(res.json()).toMatchObject({ status: 429, detail: tooManyInvitationsMessage(retryAfter) });
}

describe('invitations are limited (docs/decisions/invitation-limits.md)', () => {
  it('lets a member send so many a day, revoked or not, then answers 429 until the day is over', async () => {
    const member = await factory.loggedInMember();
    for (let n = 0; n < t.config.rateLimit.invitationsPerMember; n += 1) {
      const res = await invite(member, uniqueEmail('daily'));
      expect(res.statusCode, res.body).toBe(201);
      // Revoked at once, so the cap on people invited at one time is never what stops it.
      const { id } = delegationInvited.parse(res.json());
      const revoked = await t.request('DELETE', delegationPaths.one(id), {
        token: member.tokens.access,
      });
      expect(revoked.statusCode).toBe(204);
    }

    const address = uniqueEmail('one-more');
    expectTooManyInvitations(await invite(member, address));
    expect(await delegatesOf(member)).toEqual([]);
    expect(mailsTo(address)).toEqual([]);

    t.clock.advance(day);
    const later = { ...member, tokens: await factory.login(member) };
    expect((await invite(later, address)).statusCode).toBe(201);
  });

  it('lets one address receive so many a day from all members together', async () => {
    const address = uniqueEmail('popular');
    const perAddress = t.config.rateLimit.invitationsPerAddress;
    for (let n = 0; n < perAddress; n += 1) {
      const res = await invite(await factory.loggedInMember(), address.toUpperCase());
      expect(res.statusCode, res.body).toBe(201);
    }
    const late = await factory.loggedInMember();
    expectTooManyInvitations(await invite(late, address));
    expect(await delegatesOf(late)).toEqual([]);
    expect(mailsTo(address)).toHaveLength(perAddress);
  });

  it('counts invitations made at the same moment one by one', async () => {
    const address = uniqueEmail('rushed');
    const members = await Promise.all(Array.from({ length: 8 }, () => factory.loggedInMember()));
    const answers = await Promise.all(members.map((member) => invite(member, address)));
    const statuses = answers.map((res) => res.statusCode).sort();
    const perAddress = t.config.rateLimit.invitationsPerAddress;
    expect(statuses).toEqual([
      ...Array<number>(perAddress).fill(201),
      ...Array<number>(members.length - perAddress).fill(429),
    ]);
  });

  it('keeps the inviter’s own words out of the subject', async () => {
    const member = await factory.loggedInMember({ username: 'Claim your prize at prize.example' });
    const address = uniqueEmail('subject');
    expect((await invite(member, address)).statusCode).toBe(201);
    const mail = await inbox.waitForMessageTo(address);
    expect(mail.subject).toBe('Invitation to view a dental record in Bright Smile');
  });
});
