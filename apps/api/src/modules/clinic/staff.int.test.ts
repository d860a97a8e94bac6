import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accountPaths, clinicStaffPaths, type StaffList, type TokenPair } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, strongPassword, uniqueEmail } from '#api-test/factories';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { staffFactories } from '#api-test/staff';
import { auditEvents, doctors, staffInvitations } from '#api/db/schema';
import {
  addressHasAccountMessage,
  invalidInvitationMessage,
  invitationLifetimeMs,
} from './staff.service';

let inbox: SmtpInbox;
let t: TestApp;
let members: ReturnType<typeof factories>;
let staff: ReturnType<typeof staffFactories>;
let admin: Awaited<ReturnType<ReturnType<typeof staffFactories>['loggedInStaff']>>;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await buildTestApp({
    env: { SMTP_URL: inbox.url, COMPANY_NAME: 'Bright Smile' },
  });
  members = factories(t);
  staff = staffFactories(t);
  admin = await staff.loggedInStaff('clinic_admin');
});
afterAll(async () => {
  await t.close();
  await inbox.close();
});

const invite = (body: Record<string, unknown>, token = admin.tokens.access) =>
  t.request('POST', clinicStaffPaths.staff, { token, body });
const accept = (token: string, password = strongPassword()) =>
  t.request('POST', clinicStaffPaths.acceptInvitation, { body: { token, password } });

/** The token of the last invitation e-mailed to `email`, read from its link. */
async function invitationToken(email: string): Promise<string> {
  const mail = await inbox.waitForMessageTo(email, /staff account/);
  const link = /http:\/\/app\.test\/clinic\/invitation\?token=([A-Za-z0-9_-]+)/.exec(
    mail.text ?? '',
  );
  if (link?.[1] === undefined) throw new Error('No invitation link in the e-mail.');
  return link[1];
}

describe('POST /api/clinic/staff/', () => {
  it('e-mails a link that makes a practitioner’s account and doctor, once', async () => {
    const email = uniqueEmail('dentist');
    const res = await invite({ email, name: 'Dr. Ada Lovelace', role: 'practitioner' });
    expect(res.statusCode).toBe(201);
    const token = await invitationToken(email);
    const [row] = await t.db
      .select()
      .from(staffInvitations)
      .where(eq(staffInvitations.email, email));
    // Only a hash of the token is kept.
    expect(row?.tokenHash).not.toContain(token);
    expect(row?.expiresAt.getTime()).toBe(t.clock.now().getTime() + invitationLifetimeMs);

    const password = strongPassword();
    const accepted = await accept(token, password);
    expect(accepted.statusCode).toBe(201);
    const { id } = accepted.json<{ id: string }>();
    const [doctor] = await t.db.select().from(doctors).where(eq(doctors.userId, id));
    expect(doctor).toMatchObject({ name: 'Dr. Ada Lovelace', timeZone: 'UTC' });

    // Works once.
    const twice = await accept(token);
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ detail: invalidInvitationMessage });

    // The new account signs in on the members' sign-in, and is a practitioner.
    const login = await t.request('POST', accountPaths.login, {
      body: { login_type: 'native', email, password },
    });
    expect(login.statusCode).toBe(200);
    const me = await t.request('GET', clinicStaffPaths.me, {
      token: login.json<TokenPair>().access,
    });
    expect(me.json()).toEqual({
      id,
      name: 'Dr. Ada Lovelace',
      email,
      role: 'practitioner',
      practitioner_id: doctor?.id,
      second_factor_enrolled: false,
    });
  });

  it('makes no doctor for an invited admin', async () => {
    const { token } = await staff.invitation('clinic_admin');
    const { id } = (await accept(token)).json<{ id: string }>();
    expect(await t.db.select().from(doctors).where(eq(doctors.userId, id))).toEqual([]);
  });

  it('answers 409 for an address that already has an account', async () => {
    const member = await members.member();
    const res = await invite({
      email: member.email.toUpperCase(),
      name: 'Dr. X',
      role: 'practitioner',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ detail: addressHasAccountMessage });
  });

  it('records the invitation in the admin’s own chain', async () => {
    const res = await invite({
      email: uniqueEmail('audited'),
      name: 'Dr. Audit',
      role: 'practitioner',
    });
    const { id } = res.json<{ id: string }>();
    const rows = await t.db.select().from(auditEvents).where(eq(auditEvents.resourceId, id));
    expect(rows).toMatchObject([
      { memberId: admin.id, actor: admin.id, action: 'create', resourceType: 'staff_account' },
    ]);
  });
});

describe('GET and DELETE /api/clinic/staff/', () => {
  it('lists invited, active and deactivated staff; deactivation ends their sessions at once', async () => {
    const practitioner = await staff.loggedInStaff('practitioner');
    const invited = await staff.invitation('practitioner');
    const probe = () =>
      t.request('GET', clinicStaffPaths.me, { token: practitioner.tokens.access });
    expect((await probe()).statusCode).toBe(200);

    const removed = await t.request('DELETE', `${clinicStaffPaths.staff}${practitioner.id}/`, {
      token: admin.tokens.access,
    });
    expect(removed.statusCode).toBe(204);
    expect((await probe()).statusCode).toBe(401);
    const refreshed = await t.request('POST', accountPaths.refresh, {
      body: { refresh: practitioner.tokens.refresh },
    });
    expect(refreshed.statusCode).toBe(401);

    const list = await t.request('GET', clinicStaffPaths.staff, { token: admin.tokens.access });
    const { results } = list.json<StaffList>();
    expect(results.find((entry) => entry.id === practitioner.id)).toMatchObject({
      status: 'deactivated',
      role: 'practitioner',
    });
    expect(results.find((entry) => entry.id === invited.id)).toMatchObject({ status: 'invited' });
    expect(results.find((entry) => entry.id === admin.id)).toMatchObject({ status: 'active' });

    // Withdrawing an invitation makes its link useless.
    await t.request('DELETE', `${clinicStaffPaths.staff}${invited.id}/`, {
      token: admin.tokens.access,
    });
    expect((await accept(invited.token)).statusCode).toBe(400);
  });

  it('is the admin’s alone (403 for a practitioner)', async () => {
    const practitioner = await staff.loggedInStaff('practitioner');
    const token = practitioner.tokens.access;
    expect((await t.request('GET', clinicStaffPaths.staff, { token })).statusCode).toBe(403);
    expect(
      (await invite({ email: uniqueEmail(), name: 'Dr. Y', role: 'practitioner' }, token))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.request('DELETE', `${clinicStaffPaths.staff}${admin.id}/`, { token })).statusCode,
    ).toBe(403);
  });
});

// Last: it moves the clock past the admin's session.
describe('POST /api/clinic/invitations/accept/', () => {
  it('refuses a link older than 72 hours and a wrong token', async () => {
    const late = await staff.invitation('practitioner');
    const inTime = await staff.invitation('practitioner');
    t.clock.advance(invitationLifetimeMs - 1000);
    expect((await accept(inTime.token)).statusCode).toBe(201);
    t.clock.advance(1000);
    const expired = await accept(late.token);
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toMatchObject({ detail: invalidInvitationMessage });
    expect((await accept(`${late.token.slice(0, -2)}xx`)).statusCode).toBe(400);
  });

  it('applies the members’ password rules', async () => {
    const { token } = await staff.invitation('practitioner');
    expect((await accept(token, 'short')).statusCode).toBe(400);
    expect((await accept(token, 'password123')).statusCode).toBe(400);
    // A refused password leaves the link usable.
    expect((await accept(token)).statusCode).toBe(201);
  });
});
