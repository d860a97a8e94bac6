import { and, count, eq, gt, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import {
  mfaChallenges,
  passkeys,
  recoveryCodes,
  totpCredentials,
  type TotpCredentialRow,
} from '#api/db/schema';

/** The second factor's rows (docs/decisions/second-factor.md); every query names its member. */
export class SecondFactorRepository {
  constructor(private readonly db: Database) {}

  /** Runs `work` in one transaction: everything it writes commits together or not at all. */
  transaction<T>(work: (repository: SecondFactorRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new SecondFactorRepository(tx)));
  }

  /** A confirmed authenticator or at least one passkey, in one query. */
  async hasSecondFactor(userId: string): Promise<boolean> {
    const totp = this.db
      .select({ found: sql<number>`1` })
      .from(totpCredentials)
      .where(and(eq(totpCredentials.userId, userId), isNotNull(totpCredentials.confirmedAt)));
    const passkey = this.db
      .select({ found: sql<number>`1` })
      .from(passkeys)
      .where(eq(passkeys.userId, userId));
    const rows = await totp.unionAll(passkey).limit(1);
    return rows.length > 0;
  }

  async findTotp(userId: string): Promise<TotpCredentialRow | undefined> {
    const [row] = await this.db
      .select()
      .from(totpCredentials)
      .where(eq(totpCredentials.userId, userId));
    return row;
  }

  /** A new enrolment replaces an unconfirmed one; a confirmed authenticator is never replaced. */
  async startTotp(userId: string, secretCiphertext: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .insert(totpCredentials)
      .values({ userId, secretCiphertext, createdAt: now })
      .onConflictDoUpdate({
        target: totpCredentials.userId,
        set: { secretCiphertext, createdAt: now, lastUsedStep: null },
        setWhere: isNull(totpCredentials.confirmedAt),
      })
      .returning({ userId: totpCredentials.userId });
    return rows.length > 0;
  }

  /**
   * Records that the code of `step` was accepted; false when that step or a later one was
   * already used (a replayed code) or the authenticator is gone. Confirms an enrolment too.
   */
  async useTotpStep(userId: string, step: number, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(totpCredentials)
      .set({
        lastUsedStep: step,
        confirmedAt: sql`coalesce(${totpCredentials.confirmedAt}, ${now.toISOString()}::timestamptz)`,
      })
      .where(
        and(
          eq(totpCredentials.userId, userId),
          or(isNull(totpCredentials.lastUsedStep), sql`${totpCredentials.lastUsedStep} < ${step}`),
        ),
      )
      .returning({ userId: totpCredentials.userId });
    return rows.length > 0;
  }

  async deleteTotp(userId: string): Promise<void> {
    await this.db.delete(totpCredentials).where(eq(totpCredentials.userId, userId));
    await this.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  }

  /** Replaces every recovery code of the member. */
  async replaceRecoveryCodes(userId: string, codeHashes: string[]): Promise<void> {
    await this.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await this.db
      .insert(recoveryCodes)
      .values(codeHashes.map((codeHash) => ({ userId, codeHash })));
  }

  /** Marks an unused code used; false when there is none with that hash (or it was used). */
  async useRecoveryCode(userId: string, codeHash: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(recoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(recoveryCodes.userId, userId),
          eq(recoveryCodes.codeHash, codeHash),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    return rows.length > 0;
  }

  async unusedRecoveryCodes(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ left: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    return row?.left ?? 0;
  }

  /** Also drops the member's expired challenges, so the table holds only recent ones. */
  async insertChallenge(
    userId: string,
    tokenHash: string,
    expiresAt: Date,
    now: Date,
  ): Promise<void> {
    await this.db
      .delete(mfaChallenges)
      .where(and(eq(mfaChallenges.userId, userId), lte(mfaChallenges.expiresAt, now)));
    await this.db.insert(mfaChallenges).values({ userId, tokenHash, expiresAt });
  }

  /** The member of a live (unused, unexpired) challenge. */
  async challengeUser(tokenHash: string, now: Date): Promise<string | undefined> {
    const [row] = await this.db
      .select({ userId: mfaChallenges.userId })
      .from(mfaChallenges)
      .where(
        and(
          eq(mfaChallenges.tokenHash, tokenHash),
          isNull(mfaChallenges.usedAt),
          gt(mfaChallenges.expiresAt, now),
        ),
      );
    return row?.userId;
  }

  /** Uses a live challenge up: only one caller ever gets its member back. */
  async claimChallenge(tokenHash: string, now: Date): Promise<string | undefined> {
    const [row] = await this.db
      .update(mfaChallenges)
      .set({ usedAt: now })
      .where(
        and(
          eq(mfaChallenges.tokenHash, tokenHash),
          isNull(mfaChallenges.usedAt),
          gt(mfaChallenges.expiresAt, now),
        ),
      )
      .returning({ userId: mfaChallenges.userId });
    return row?.userId;
  }

  /** The member a challenge was made for, used or not (for the audit trail). */
  async challengeOwner(tokenHash: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ userId: mfaChallenges.userId })
      .from(mfaChallenges)
      .where(eq(mfaChallenges.tokenHash, tokenHash));
    return row?.userId;
  }
}
