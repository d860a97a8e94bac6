import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import {
  mfaTokenExpiredMessage,
  recoveryCodeCount,
  wrongCodeMessage,
  type RecoveryCodes,
  type SecondFactorStatus,
  type TotpEnrolment,
} from '@dental/contracts';
import type { Clock } from '#api/clock';
import type { UserRow } from '#api/db/schema';
import { BadRequest, Conflict, Unauthorized } from '#api/domain-errors';
import type { AuthRepository } from './auth.repository';
import type { GuessLock } from './guess-lock';
import type { PasswordRecheckService } from './password-recheck.service';
import type { SecondFactorRepository } from './second-factor.repository';
import type { SecurityNotices } from './security-notices';
import { hashOpaqueToken, newOpaqueToken } from './token.service';

/** How long the `mfa_token` between the password and the code stays usable. */
export const mfaTokenLifetimeMs = 5 * 60 * 1000;

/** RFC 6238 defaults, which every authenticator app supports. */
const totpPeriodSeconds = 30;
const totpDigits = 6;
/** Codes of the step before and after are accepted too, for clocks a little off. */
const totpWindow = 1;

/** Recovery codes: 10 characters of a 32-letter alphabet without look-alikes (l, o, 0, 1): 50
 *  random bits each, shown as two groups of five. */
const recoveryAlphabet = 'abcdefghijkmnpqrstuvwxyz23456789';

export const totpAlreadyOnMessage = 'Two-step verification is already on for this account.';
export const noTotpEnrolmentMessage =
  'Start setting up two-step verification again: there is no authenticator waiting for a first code.';
export const noTotpMessage = 'Two-step verification with an authenticator app is not on.';

export interface SecondFactorSettings {
  /** The name authenticator apps show next to the code. */
  issuer: string;
  /** AES-256-GCM key of the stored secrets (config.ts `totpSecretKey`). */
  secretKey: Buffer;
}

function newRecoveryCode(): string {
  const chars = [...randomBytes(10)].map((byte) => recoveryAlphabet[byte % 32]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** The form a code is compared in: what the member typed without spaces or dashes. */
const normalized = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

const wrongCode = () => new BadRequest(wrongCodeMessage, { code: [wrongCodeMessage] });

/**
 * The second factor (docs/decisions/second-factor.md): a TOTP authenticator with ten recovery
 * codes, or a passkey; the `mfa_token` between the password and the code; the code as a step-up.
 */
export class SecondFactorService {
  constructor(
    private readonly repository: SecondFactorRepository,
    private readonly accounts: AuthRepository,
    private readonly recheck: PasswordRecheckService,
    /** Wrong codes lock like wrong passwords (docs/decisions/login-throttling.md). */
    private readonly guesses: GuessLock,
    private readonly notices: SecurityNotices,
    private readonly clock: Clock,
    private readonly settings: SecondFactorSettings,
  ) {}

  /** The one rule of the sign-in gate: a confirmed authenticator or at least one passkey. */
  hasSecondFactor(userId: string): Promise<boolean> {
    return this.repository.hasSecondFactor(userId);
  }

  async status(userId: string): Promise<SecondFactorStatus> {
    const totp = await this.repository.findTotp(userId);
    const on = totp?.confirmedAt != null;
    return {
      totp_enabled: on,
      recovery_codes_left: on ? await this.repository.unusedRecoveryCodes(userId) : 0,
    };
  }

  /** A new secret, waiting for its first code; replaces an enrolment never confirmed. */
  async startTotp(userId: string, password: string): Promise<TotpEnrolment> {
    const user = await this.recheck.require(userId, password);
    const secret = new Secret({ size: 20 });
    const started = await this.repository.startTotp(
      userId,
      this.encrypt(secret.base32),
      this.clock.now(),
    );
    if (!started) throw new Conflict(totpAlreadyOnMessage);
    return { secret: secret.base32, otpauth_uri: this.totp(secret, user.email).toString() };
  }

  /** The first right code turns the authenticator on; the recovery codes are shown once. */
  async confirmTotp(userId: string, code: string): Promise<RecoveryCodes> {
    const totp = await this.repository.findTotp(userId);
    if (totp === undefined) throw new Conflict(noTotpEnrolmentMessage);
    if (totp.confirmedAt !== null) throw new Conflict(totpAlreadyOnMessage);
    const codes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
    const now = this.clock.now();
    await this.throttled(userId, async () => {
      const step = this.matchingStep(totp.secretCiphertext, code, now);
      if (step === null) return false;
      return this.repository.transaction(async (tx) => {
        if (!(await tx.useTotpStep(userId, step, now))) return false;
        await tx.replaceRecoveryCodes(
          userId,
          codes.map((recovery) => hashOpaqueToken(normalized(recovery))),
        );
        return true;
      });
    });
    await this.notify(userId, (user) => this.notices.secondFactorEnabled(user, now));
    return { recovery_codes: codes };
  }

  /** Turns the authenticator off: the password and a code (or a recovery code) again. */
  async removeTotp(userId: string, password: string, code: string): Promise<void> {
    await this.recheck.require(userId, password);
    const totp = await this.repository.findTotp(userId);
    if (totp?.confirmedAt == null) throw new Conflict(noTotpMessage);
    await this.verifyCode(userId, code);
    await this.repository.transaction((tx) => tx.deleteTotp(userId));
    const now = this.clock.now();
    await this.notify(userId, (user) => this.notices.secondFactorDisabled(user, now));
  }

  /**
   * A code of the member's authenticator, or an unused recovery code (which is then used up).
   * Throws 400 for a wrong code and 429 while wrong codes have locked the member.
   */
  async verifyCode(userId: string, code: string): Promise<void> {
    const now = this.clock.now();
    const accepted = await this.throttled(userId, async () => {
      const totp = await this.repository.findTotp(userId);
      if (totp?.confirmedAt == null) return null;
      const step = this.matchingStep(totp.secretCiphertext, code, now);
      if (step !== null) return (await this.repository.useTotpStep(userId, step, now)) && 'totp';
      const hash = hashOpaqueToken(normalized(code));
      return (await this.repository.useRecoveryCode(userId, hash, now)) && 'recovery code';
    });
    if (accepted === 'recovery code') {
      const left = await this.repository.unusedRecoveryCodes(userId);
      await this.notify(userId, (user) => this.notices.recoveryCodeUsed(user, left, now));
    }
  }

  /** The `mfa_token` of a right password for an account with a second factor. */
  async challenge(userId: string): Promise<string> {
    const token = newOpaqueToken();
    const now = this.clock.now();
    await this.repository.insertChallenge(
      userId,
      hashOpaqueToken(token),
      new Date(now.getTime() + mfaTokenLifetimeMs),
      now,
    );
    return token;
  }

  /** The member of a live `mfa_token`, which is used up: it works once, within 5 minutes. For
   *  the second step's other answers (a passkey), after they are verified. */
  async consumeMfaToken(token: string): Promise<string> {
    const userId = await this.repository.claimChallenge(hashOpaqueToken(token), this.clock.now());
    if (userId === undefined) throw new Unauthorized(mfaTokenExpiredMessage);
    return userId;
  }

  /** The second step with a code: checks the code against the token's member (a wrong code
   *  leaves the token usable until it expires), then uses the token up. */
  async redeemWithCode(token: string, code: string): Promise<string> {
    const userId = await this.repository.challengeUser(hashOpaqueToken(token), this.clock.now());
    if (userId === undefined) throw new Unauthorized(mfaTokenExpiredMessage);
    await this.verifyCode(userId, code);
    return this.consumeMfaToken(token);
  }

  /** The member behind an `mfa_token`, live or not, for the audit trail. */
  async mfaTokenOwner(token: string): Promise<string | null> {
    return (await this.repository.challengeOwner(hashOpaqueToken(token))) ?? null;
  }

  /** Runs a code check under the member's lock, counted before it runs like a password guess;
   *  a wrong code (a falsy answer of `attempt`) is a 400. Answers what `attempt` accepted. */
  private async throttled<Accepted>(
    userId: string,
    attempt: () => Promise<Accepted | false | null>,
  ): Promise<Accepted> {
    const key = hashOpaqueToken(`second-factor:${userId}`);
    const accepted = await this.guesses.evaluate(key, this.clock.now(), attempt);
    if (accepted === false || accepted === null) throw wrongCode();
    return accepted;
  }

  /** The time step whose code `code` is, within the window; null for any other code. */
  private matchingStep(secretCiphertext: string, code: string, now: Date): number | null {
    const token = normalized(code);
    if (!/^\d{6}$/.test(token)) return null;
    const secret = Secret.fromBase32(this.decrypt(secretCiphertext));
    const timestamp = now.getTime();
    const delta = this.totp(secret, '').validate({ token, timestamp, window: totpWindow });
    if (delta === null) return null;
    return TOTP.counter({ period: totpPeriodSeconds, timestamp }) + delta;
  }

  private totp(secret: Secret, label: string): TOTP {
    return new TOTP({
      issuer: this.settings.issuer,
      label,
      secret,
      algorithm: 'SHA1',
      digits: totpDigits,
      period: totpPeriodSeconds,
    });
  }

  private async notify(userId: string, send: (user: UserRow) => Promise<void>): Promise<void> {
    const user = await this.accounts.findUserById(userId);
    if (user !== undefined) await send(user);
  }

  private encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.settings.secretKey, iv);
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), ciphertext]
      .map((part) => part.toString('base64url'))
      .join('.');
  }

  private decrypt(stored: string): string {
    const [iv, tag, ciphertext] = stored.split('.').map((part) => Buffer.from(part, 'base64url'));
    if (iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new Error('A stored TOTP secret is malformed.');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.settings.secretKey, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  }
}
