import { describeBrowser, type AuditAction, type AuditResourceType } from '@dental/contracts';
import type { Mailer, MailMessage } from '#api/adapters/mailer';
import type { UserRow } from '#api/db/schema';
import type { ErrorLogger } from '#api/logger';
import { htmlParagraphs } from '#api/lib/html';
import type { SignInContext } from './sign-in';

/** The audit trail as the notices use it: AuditService, wired in services.ts. */
export interface SecurityAudit {
  record(event: {
    memberId: string;
    actor: string;
    action: AuditAction;
    resourceType: AuditResourceType;
    resourceId: string | null;
    result: 'success';
  }): Promise<void>;
}

export interface SecurityNoticeSettings {
  /** The web app's origin, for the links in the e-mails. */
  publicUrl: string;
  companyName: string;
  customerServiceEmail: string;
}

/** Which earlier sign-ins make this one "from a new device" (docs/decisions/signed-in-devices.md):
 *  the member has signed in before, with user agents we can read, and none of them is the same
 *  browser on the same system. A first sign-in, or one after sessions without a user agent
 *  (before they were kept), is never new. */
export function isNewDevice(earlierUserAgents: string[], userAgent: string | null): boolean {
  const device = describeBrowser(userAgent);
  return (
    earlierUserAgents.length > 0 && earlierUserAgents.every((ua) => describeBrowser(ua) !== device)
  );
}

const minuteInUtc = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * The e-mails that tell a member about a change to how their account is reached: a sign-in from
 * a new device and a password change. Sent after the change commits; an e-mail that cannot be
 * sent is logged and does not undo the change.
 */
export class SecurityNotices {
  constructor(
    private readonly mailer: Mailer,
    private readonly audit: SecurityAudit,
    private readonly settings: SecurityNoticeSettings,
    private readonly log: ErrorLogger,
  ) {}

  /** The audit row and the e-mail of a sign-in from a new device. */
  async newDeviceSignIn(
    user: UserRow,
    sessionId: string,
    context: SignInContext,
    at: Date,
  ): Promise<void> {
    await this.audit.record({
      memberId: user.id,
      actor: user.id,
      action: 'new_device_sign_in',
      resourceType: 'session',
      resourceId: sessionId,
      result: 'success',
    });
    const { companyName, publicUrl } = this.settings;
    const from = context.ip === null ? '' : ` (address ${context.ip})`;
    await this.send(user, `New sign-in to your ${companyName} account`, [
      `Hello ${user.username},`,
      `Your ${companyName} account was signed in to from ${describeBrowser(context.userAgent)}${from} on ${minuteInUtc(at)}. You have not signed in from this device before.`,
      'If this was you, there is nothing to do.',
      `If it was not you, open Signed-in devices, choose 'Sign out everywhere else' and change your password: ${publicUrl}/account/security`,
      companyName,
    ]);
  }

  /** A new password, set while signed in ('change': the other devices are signed out) or
   *  through a reset link ('reset': every device is). Neither the password nor the link is in
   *  it. */
  async passwordChanged(
    user: UserRow,
    at: Date,
    how: 'change' | 'reset' = 'change',
  ): Promise<void> {
    const { companyName, publicUrl, customerServiceEmail } = this.settings;
    const what =
      how === 'reset'
        ? `The password of your ${companyName} account was changed with a password reset link on ${minuteInUtc(at)}. Every device signed in to your account has been signed out.`
        : `The password of your ${companyName} account was changed on ${minuteInUtc(at)}. Your other devices have been signed out.`;
    await this.send(user, `Your ${companyName} password was changed`, [
      `Hello ${user.username},`,
      what,
      `If you did not change it, reset your password now at ${publicUrl}/forget-password and contact customer service at ${customerServiceEmail}.`,
      companyName,
    ]);
  }

  /** Two-step verification turned on (docs/decisions/second-factor.md). */
  async secondFactorEnabled(user: UserRow, at: Date): Promise<void> {
    const { companyName, customerServiceEmail } = this.settings;
    await this.send(user, `Two-step verification is on for your ${companyName} account`, [
      `Hello ${user.username},`,
      `Two-step verification was turned on for your ${companyName} account on ${minuteInUtc(at)}. From now on, signing in asks for a code from your authenticator app after your password.`,
      `If you did not do this, contact customer service at ${customerServiceEmail}.`,
      companyName,
    ]);
  }

  async secondFactorDisabled(user: UserRow, at: Date): Promise<void> {
    const { companyName, publicUrl, customerServiceEmail } = this.settings;
    await this.send(user, `Two-step verification is off for your ${companyName} account`, [
      `Hello ${user.username},`,
      `Two-step verification with an authenticator app was turned off for your ${companyName} account on ${minuteInUtc(at)}.`,
      `If you did not do this, reset your password now at ${publicUrl}/forget-password and contact customer service at ${customerServiceEmail}.`,
      companyName,
    ]);
  }

  /** A recovery code was used: the audit row and the e-mail, with how many are left. */
  async recoveryCodeUsed(user: UserRow, left: number, at: Date): Promise<void> {
    await this.audit.record({
      memberId: user.id,
      actor: user.id,
      action: 'recovery_code_use',
      resourceType: 'account',
      resourceId: null,
      result: 'success',
    });
    const { companyName, publicUrl, customerServiceEmail } = this.settings;
    await this.send(user, `A recovery code of your ${companyName} account was used`, [
      `Hello ${user.username},`,
      `A recovery code was used to confirm a sign-in or a change to your ${companyName} account on ${minuteInUtc(at)}. Each code works once; ${left} of your 10 codes ${left === 1 ? 'is' : 'are'} left.`,
      `If you did not do this, reset your password now at ${publicUrl}/forget-password and contact customer service at ${customerServiceEmail}.`,
      companyName,
    ]);
  }

  private async send(user: UserRow, subject: string, lines: string[]): Promise<void> {
    const message: MailMessage = {
      to: user.email,
      subject,
      text: lines.join('\n\n'),
      html: htmlParagraphs(lines),
    };
    try {
      await this.mailer.send(message);
    } catch (error) {
      this.log.error({ err: error }, 'security notice e-mail could not be sent');
    }
  }
}
