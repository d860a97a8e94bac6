import { timingSafeEqual } from 'node:crypto';
import {
  emailConfirmedMessage,
  invalidConfirmationKeyMessage,
  sameEmailMessage,
  type Account,
  type MessageResponse,
} from '@dental/contracts';
import type { Mailer } from '#api/adapters/mailer';
import type { Clock } from '#api/clock';
import type { UserRow } from '#api/db/schema';
import { BadRequest, Conflict, NotFound } from '#api/domain-errors';
import { htmlParagraphs } from '#api/lib/html';
import type { ErrorLogger } from '#api/logger';
import type { AuthRepository } from './auth.repository';
import { emailTakenMessage } from './registration.service';
import type { SecurityAudit } from './security-notices';
import { hashOpaqueToken, newOpaqueToken } from './token.service';

/** A confirmation link works for a day: long enough to find the mail, short enough that an old
 *  one lying in a mailbox is useless. */
export const confirmationLifetimeMs = 24 * 60 * 60 * 1000;

export interface EmailConfirmationSettings {
  /** The web app's origin: the link opens its confirm-email screen. */
  publicUrl: string;
  companyName: string;
  customerServiceEmail: string;
}

/**
 * Confirms the member's e-mail address: at sign-up, on request from the banner, and before a
 * change of address takes effect (docs/decisions/email-confirmation.md). The keys are
 * single-use, expire after a day, are stored only as SHA-256 hashes, and each request to the
 * confirming route is counted per client address before its key is looked up.
 */
export class EmailConfirmationService {
  constructor(
    private readonly repository: AuthRepository,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly settings: EmailConfirmationSettings,
    private readonly audit: SecurityAudit,
    private readonly log: ErrorLogger,
    /** The account answer (AccountService.get, wired in services.ts). */
    private readonly accountOf: (userId: string) => Promise<Account>,
  ) {}

  /** After sign-up: the link to the address the member gave. A failed e-mail is logged and
   *  does not undo the sign-up; the banner sends it again. */
  async afterSignUp(user: UserRow): Promise<void> {
    try {
      await this.sendLink(user, user.email);
    } catch (error) {
      this.log.error({ err: error }, 'e-mail confirmation could not be sent');
    }
  }

  /** The banner's 'Send the e-mail again': a new link to the address waiting for one (a change
   *  asked for, else the account's own when unconfirmed); every earlier link stops working. */
  async resend(userId: string): Promise<void> {
    const user = await this.requireUser(userId);
    const pending = await this.repository.newestEmailConfirmation(userId);
    const to = pending ?? (user.emailConfirmedAt === null ? user.email : undefined);
    if (to === undefined) {
      throw new BadRequest('Your e-mail address is already confirmed.');
    }
    await this.sendLink(user, to);
  }

  /**
   * A change of address: the account keeps its address until the new one is confirmed (so a
   * typo never cuts the member off), the link goes to the new one, and the old one is told.
   */
  async requestChange(userId: string, email: string): Promise<Account> {
    const user = await this.requireUser(userId);
    if (email.toLowerCase() === user.email.toLowerCase()) {
      throw new BadRequest(sameEmailMessage, { email: [sameEmailMessage] });
    }
    if (await this.repository.emailTakenByOther(userId, email)) {
      throw new Conflict(emailTakenMessage, { email: [emailTakenMessage] });
    }
    await this.sendLink(user, email);
    const { companyName, customerServiceEmail } = this.settings;
    await this.tell(user.email, `Your ${companyName} e-mail address is being changed`, [
      `Hello ${user.username},`,
      `Someone signed in to your ${companyName} account asked to change its e-mail address to ${email}. The change happens only when the link we sent there is opened; until then this address stays the account's.`,
      `If this was not you, sign in and change your password, and contact customer service at ${customerServiceEmail}.`,
      companyName,
    ]);
    return this.accountOf(userId);
  }

  /** The link was opened: its address becomes the account's, confirmed. */
  async confirm(key: string): Promise<MessageResponse> {
    const now = this.clock.now();
    const keyHash = hashOpaqueToken(key);
    const outcome = await this.repository.transaction(async (tx) => {
      const claimed = await tx.claimEmailConfirmation(keyHash, now);
      // The lookup found the row by its hash; the bytes are compared again in constant time so
      // that no shortcut in the index's comparison could tell a guesser how close it came.
      if (claimed === undefined || !sameHash(claimed.keyHash, keyHash)) return undefined;
      const changed = await tx.confirmEmail(claimed.userId, claimed.email, now);
      if (changed === 'taken') throw new Conflict(emailTakenMessage, { key: [emailTakenMessage] });
      return changed;
    });
    if (outcome === undefined) {
      throw new BadRequest(invalidConfirmationKeyMessage, {
        key: [invalidConfirmationKeyMessage],
      });
    }
    const { before, after } = outcome;
    await this.audit.record({
      memberId: after.id,
      actor: after.id,
      action: 'email_confirm',
      resourceType: 'account',
      resourceId: null,
      result: 'success',
    });
    if (before.email !== after.email) {
      const { companyName, customerServiceEmail } = this.settings;
      await this.tell(before.email, `Your ${companyName} e-mail address was changed`, [
        `Hello ${after.username},`,
        `The e-mail address of your ${companyName} account was changed to ${after.email}. Sign-in, reminders and notices use the new address from now on.`,
        `If this was not you, contact customer service at ${customerServiceEmail}.`,
        companyName,
      ]);
    }
    return { message: emailConfirmedMessage };
  }

  private async sendLink(user: UserRow, to: string): Promise<void> {
    const key = newOpaqueToken();
    const now = this.clock.now();
    await this.repository.replaceEmailConfirmation({
      userId: user.id,
      email: to,
      keyHash: hashOpaqueToken(key),
      createdAt: now,
      expiresAt: new Date(now.getTime() + confirmationLifetimeMs),
    });
    const { companyName, publicUrl } = this.settings;
    const link = `${publicUrl}/confirm-email?key=${encodeURIComponent(key)}`;
    const lines = [
      `Hello ${user.username},`,
      `Please confirm that this is the e-mail address of your ${companyName} account by opening this link within 24 hours:`,
      link,
      'Reminders, notices and password reset links are sent only to a confirmed address.',
      'If you did not ask for this, you can ignore this e-mail.',
      companyName,
    ];
    await this.mailer.send({
      to,
      subject: `Confirm your e-mail address for ${companyName}`,
      text: lines.join('\n\n'),
      html: htmlParagraphs(lines),
    });
  }

  /** A notice to the old address; a failure is logged and does not undo the change. */
  private async tell(to: string, subject: string, lines: string[]): Promise<void> {
    try {
      await this.mailer.send({
        to,
        subject,
        text: lines.join('\n\n'),
        html: htmlParagraphs(lines),
      });
    } catch (error) {
      this.log.error({ err: error }, 'e-mail change notice could not be sent');
    }
  }

  private async requireUser(userId: string): Promise<UserRow> {
    const user = await this.repository.findUserById(userId);
    if (user === undefined) throw new NotFound('This account no longer exists.');
    return user;
  }
}

function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
