import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories, strongPassword, uniqueEmail } from '#api-test/factories';
import { startSmtpInbox, type SmtpInbox } from '#api-test/smtp-inbox';
import { staffInvitations } from '#api/db/schema';
import { invitationLifetimeMs } from './staff.service';

let inbox: SmtpInbox;
let t: TestApp;
const firstAdminEmail = uniqueEmail('first-admin');

beforeAll(async () => {
  inbox = await startSmtpInbox();
  t = await buildTestApp({
    env: { SMTP_URL: inbox.url, COMPANY_NAME: 'Bright Smile', CLINIC_ADMIN_EMAIL: firstAdminEmail },
  });
});
afterAll(async () => {
  await t.close();
  await inbox.close();
});

const invitationsOf = (email: string) =>
  t.db.select().from(staffInvitations).where(eq(staffInvitations.email, email));
const mailsTo = (email: string) =>
  inbox.messages.filter((mail) => JSON.stringify(mail.to).includes(email));

describe('the first admin (CLINIC_ADMIN_EMAIL)', () => {
  it('is invited at start, once, whatever the restarts', async () => {
    const mail = await inbox.waitForMessageTo(firstAdminEmail);
    expect(mail.subject).toBe('Your staff account at Bright Smile');
    expect(mail.text).toContain('http://app.test/clinic/invitation?token=');
    // Two more starts, at once: the lock lets one look at a time; the open invitation stops both.
    const again = await Promise.all([
      t.services.staff.inviteFirstAdmin(firstAdminEmail),
      t.services.staff.inviteFirstAdmin(firstAdminEmail),
    ]);
    expect(again).toEqual(['not needed', 'not needed']);
    expect(await invitationsOf(firstAdminEmail)).toHaveLength(1);
    expect(mailsTo(firstAdminEmail)).toHaveLength(1);
  });

  it('is not invited to an address that already has an account', async () => {
    const member = await factories(t).member();
    expect(await t.services.staff.inviteFirstAdmin(member.email)).toBe('address has account');
    expect(await invitationsOf(member.email)).toHaveLength(0);
  });

  it('is invited again once the invitation lapsed unanswered, and never once an admin exists', async () => {
    t.clock.advance(invitationLifetimeMs);
    expect(await t.services.staff.inviteFirstAdmin(firstAdminEmail)).toBe('invited');
    const token = /token=([A-Za-z0-9_-]+)/.exec(
      (await inbox.waitForMessageTo(firstAdminEmail)).text ?? '',
    )?.[1];
    expect(mailsTo(firstAdminEmail)).toHaveLength(2);
    await t.services.staff.accept({ token: token ?? '', password: strongPassword() });
    t.clock.advance(invitationLifetimeMs);
    expect(await t.services.staff.inviteFirstAdmin(uniqueEmail('another'))).toBe('not needed');
  });
});
