import {
  forgetPasswordSuccess,
  updatePasswordSuccess,
  type MessageResponse,
  type UpdatePasswordRequest,
} from '@dental/contracts';
import type { Mailer, MailMessage } from '#api/adapters/mailer';
import type { Clock } from '#api/clock';
import { BadRequest } from '#api/domain-errors';
import { escapeHtml } from '#api/lib/html';
import type { PasswordResetKeyRow, UserRow } from '#api/db/schema';
import type { ErrorLogger } from '#api/logger';
import type { AuthRepository } from './auth.repository';
import type { SecurityNotices } from './security-notices';
import { assertAcceptablePassword, type PasswordService } from './password.service';
import { isActiveMember } from './sign-in';
import type { EndStandingLinks } from './standing-links';
import { hashOpaqueToken, newOpaqueToken } from './token.service';

export const resetKeyLifetimeMs = 60 * 60 * 1000;

export const invalidResetKeyMessage =
  'This password reset link is invalid, has already been used or has expired. Please request a new one.';

export interface PasswordResetSettings {
  /** The web app's origin: the link opens its update-password screen. */
  publicUrl: string;
  companyName: string;
}

/** Forgotten passwords (docs/product/accounts.md#forgot-password,
 *  docs/product/accounts.md#reset-password). */
export class PasswordResetService {
  /** Reset requests still being looked up and mailed; shutdown waits for them. */
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly repository: AuthRepository,
    private readonly passwords: PasswordService,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly settings: PasswordResetSettings,
    private readonly log: ErrorLogger,
    private readonly endStandingLinks: EndStandingLinks,
    private readonly notices: Pick<SecurityNotices, 'passwordChanged'>,
  ) {}

  /**
   * The same answer, as fast, whether or not the address belongs to an active member: the
   * lookup, the key and the e-mail all happen after the answer, so neither its time nor its
   * outcome depends on the address (docs/decisions/password-reset.md).
   */
  requestReset(email: string): MessageResponse {
    const work = this.sendResetLink(email)
      .catch((error: unknown) => {
        this.log.error({ err: error }, 'password reset e-mail could not be sent');
      })
      .finally(() => this.pending.delete(work));
    this.pending.add(work);
    return { message: forgetPasswordSuccess };
  }

  /** Whether a reset link can still set a password, using nothing up: the same refusal as
   *  updatePassword, and nothing about the account (docs/decisions/password-reset.md). */
  async checkKey(key: string): Promise<void> {
    const row = await this.repository.findPasswordResetKey(hashOpaqueToken(key));
    if (!isUsable(row, this.clock.now())) throw invalidKey();
    const user = await this.repository.findUserById(row.userId);
    if (!isActiveMember(user)) throw invalidKey();
  }

  /** Sets the new password, uses up every reset link and ends every session of the member and
   *  the links that open the member's data without one. */
  async updatePassword(request: UpdatePasswordRequest): Promise<MessageResponse> {
    assertAcceptablePassword(request.password);
    const now = this.clock.now();
    const key = await this.repository.findPasswordResetKey(hashOpaqueToken(request.key));
    // Checked before hashing, so made-up keys cost the server no hashing work.
    if (!isUsable(key, now)) throw invalidKey();
    const passwordHash = await this.passwords.hash(request.password);
    await this.endStandingLinks(key.userId);
    const updated = await this.repository.transaction(async (tx): Promise<UserRow | undefined> => {
      if (!(await tx.claimPasswordResetKey(key.userId, key.id, now))) return undefined;
      const user = await tx.findUserById(key.userId);
      if (!isActiveMember(user)) return undefined;
      await tx.updatePasswordHash(user.id, passwordHash, now);
      // The link reached the address and was opened: that confirms it, like a confirmation
      // link would (docs/decisions/email-confirmation.md).
      await tx.markEmailConfirmed(user.id, now);
      await tx.useAllPasswordResetKeys(user.id, now);
      await tx.endSessions(user.id, 'all', now);
      return user;
    });
    if (updated === undefined) throw invalidKey();
    // After the commit, like a change while signed in: a failed e-mail does not undo the reset.
    await this.notices.passwordChanged(updated, now, 'reset');
    return { message: updatePasswordSuccess };
  }

  /** Waits for reset requests still in flight (graceful shutdown, tests). */
  async drain(): Promise<void> {
    await Promise.all(this.pending);
  }

  private async sendResetLink(email: string): Promise<void> {
    const user = await this.repository.findUserByEmail(email);
    if (!isActiveMember(user)) return;
    const key = newOpaqueToken();
    const now = this.clock.now();
    await this.repository.insertPasswordResetKey({
      userId: user.id,
      keyHash: hashOpaqueToken(key),
      createdAt: now,
      expiresAt: new Date(now.getTime() + resetKeyLifetimeMs),
    });
    await this.mailer.send(this.resetMessage(user.email, user.username, key));
  }

  private resetMessage(to: string, username: string, key: string): MailMessage {
    const { companyName, publicUrl } = this.settings;
    const link = `${publicUrl}/update-password?key=${encodeURIComponent(key)}`;
    const lines = [
      `Hello ${username},`,
      `We received a request to reset the password of your ${companyName} account. Open this link within 1 hour to choose a new password:`,
      link,
      'If you did not ask for this, you can ignore this e-mail: your password stays the same.',
      companyName,
    ];
    const html = lines
      .map((line) =>
        line === link
          ? `<p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`
          : `<p>${escapeHtml(line)}</p>`,
      )
      .join('\n');
    return {
      to,
      subject: `Reset your ${companyName} password`,
      text: lines.join('\n\n'),
      html,
    };
  }
}

function isUsable(key: PasswordResetKeyRow | undefined, now: Date): key is PasswordResetKeyRow {
  return key?.usedAt === null && key.expiresAt > now;
}

function invalidKey(): BadRequest {
  return new BadRequest(invalidResetKeyMessage, { key: [invalidResetKeyMessage] });
}
