import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { membershipPaths, plans } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { membershipHelpers } from '#api-test/support/membership';
import { recordingJobQueue } from '#api-test/support/recording-job-queue';
import { membershipExpiryQueue, registerMembershipJobs } from './membership.jobs';
import { expiryReminderMs, oneYearAfter } from './membership.service';

/** The one-year term: the reminder 14 days before its end, then the return to Silver. */
let t: TestApp;
let smtp: SmtpInbox;
let factory: ReturnType<typeof factories>;
let helpers: ReturnType<typeof membershipHelpers>;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  t = await buildTestApp({ env: { SMTP_URL: smtp.url } });
  factory = factories(t);
  helpers = membershipHelpers(t);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** A member who bought `plan` through the test-mode checkout just now. */
async function paidMember(plan: 'Gold' | 'Platinum') {
  const member = await factory.loggedInMember();
  const res = await helpers.choosePlan(member.tokens.access, {
    memberId: member.id,
    selectedPlan: plan,
  });
  const { id } = res.json<{ id: string }>();
  const page = await t.request('GET', `${membershipPaths.testCheckout}?payment_id=${id}`);
  const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  const paid = await t.request('POST', membershipPaths.testCheckoutPay, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ payment_id: id, token }).toString(),
  });
  expect(paid.statusCode).toBe(303);
  return { ...member, paidAt: t.clock.now() };
}

const remindersTo = (email: string) =>
  smtp.messages.filter(
    (mail) =>
      mail.subject?.includes('membership ends on') === true &&
      [mail.to ?? []].flat().some((to) => to.value.some((entry) => entry.address === email)),
  );

describe('oneYearAfter', () => {
  it('keeps the day, and turns 29 February into 28 February', () => {
    expect(oneYearAfter(new Date('2027-03-15T10:00:00.000Z')).toISOString()).toBe(
      '2028-03-15T10:00:00.000Z',
    );
    expect(oneYearAfter(new Date('2028-02-29T10:00:00.000Z')).toISOString()).toBe(
      '2029-02-28T10:00:00.000Z',
    );
  });
});

describe('the membership expiry sweep', () => {
  it('e-mails once 14 days before the end, then returns the member to Silver at the end', async () => {
    const member = await paidMember('Gold');
    const end = oneYearAfter(member.paidAt);
    const { membership } = t.services;

    t.clock.advance(end.getTime() - expiryReminderMs - t.clock.now().getTime() - 1);
    await membership.sweepExpiry();
    expect(remindersTo(member.email)).toHaveLength(0);

    t.clock.advance(1);
    await membership.sweepExpiry();
    const reminder = await smtp.waitForMessageTo(member.email);
    expect(reminder.subject).toMatch(/^Your Gold membership ends on /);
    expect(reminder.text).toContain(`${t.config.publicUrl}/membership`);
    await membership.sweepExpiry();
    expect(remindersTo(member.email)).toHaveLength(1);
    expect((await helpers.levelOf(member.id))?.customer_level).toBe('Gold');

    t.clock.advance(expiryReminderMs - 1);
    await membership.sweepExpiry();
    expect((await helpers.levelOf(member.id))?.customer_level).toBe('Gold');

    t.clock.advance(1);
    await membership.sweepExpiry();
    const after = await helpers.levelOf(member.id);
    // Points keep their own expiry (the end of the year they were granted).
    expect(after).toMatchObject({
      customer_level: 'Silver',
      points: plans.Silver.signUpBonusPoints + plans.Gold.signUpBonusPoints,
    });
    expect(remindersTo(member.email)).toHaveLength(1);
    // Silver again, the member may buy a plan again.
    const { access } = await factory.login(member);
    const again = await helpers.choosePlan(access, {
      memberId: member.id,
      selectedPlan: 'Gold',
    });
    expect(again.statusCode).toBe(200);
  });

  it('starts a new one-year term on an upgrade', async () => {
    const member = await paidMember('Gold');
    t.clock.advance(100 * 24 * 3600_000);
    const { access } = await factory.login(member);
    const res = await helpers.choosePlan(access, {
      memberId: member.id,
      selectedPlan: 'Platinum',
    });
    const { id } = res.json<{ id: string }>();
    const page = await t.request('GET', `${membershipPaths.testCheckout}?payment_id=${id}`);
    const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    await t.request('POST', membershipPaths.testCheckoutPay, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ payment_id: id, token }).toString(),
    });
    const upgradedAt = t.clock.now();
    // The first term's end passes: the member stays Platinum until a year after the upgrade.
    t.clock.advance(oneYearAfter(member.paidAt).getTime() - t.clock.now().getTime() + 1);
    await t.services.membership.sweepExpiry();
    expect((await helpers.levelOf(member.id))?.customer_level).toBe('Platinum');
    t.clock.advance(oneYearAfter(upgradedAt).getTime() - t.clock.now().getTime());
    await t.services.membership.sweepExpiry();
    expect((await helpers.levelOf(member.id))?.customer_level).toBe('Silver');
  });

  it('runs as a scheduled job on the queue', async () => {
    const { queue, registered } = recordingJobQueue();
    await registerMembershipJobs(queue, t.services.membership);
    expect(registered).toHaveLength(1);
    const [job] = registered;
    expect(job).toMatchObject({ queue: membershipExpiryQueue, cron: '*/5 * * * *' });

    const member = await paidMember('Platinum');
    t.clock.advance(oneYearAfter(member.paidAt).getTime() - t.clock.now().getTime());
    await job?.handler({}, { id: 'job-1', retryCount: 0 });
    expect((await helpers.levelOf(member.id))?.customer_level).toBe('Silver');
  });
});

describe('completion under concurrency', () => {
  it('adds the bonus points once when Pay is submitted twice at the same moment', async () => {
    const member = await factory.loggedInMember();
    const res = await helpers.choosePlan(member.tokens.access, {
      memberId: member.id,
      selectedPlan: 'Gold',
    });
    const { id } = res.json<{ id: string }>();
    const page = await t.request('GET', `${membershipPaths.testCheckout}?payment_id=${id}`);
    const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const submit = () =>
      t.request('POST', membershipPaths.testCheckoutPay, {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ payment_id: id, token }).toString(),
      });
    await Promise.all([submit(), submit()]);
    expect(await helpers.account(member.tokens.access)).toMatchObject({
      customer_level: 'Gold',
      points: plans.Silver.signUpBonusPoints + plans.Gold.signUpBonusPoints,
    });
  });
});
