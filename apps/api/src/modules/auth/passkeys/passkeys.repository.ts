import { and, asc, eq, gt, isNull, lte } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { isUniqueViolation } from '#api/db/errors';
import { passkeys, webauthnChallenges, type PasskeyRow } from '#api/db/schema';

/** What a challenge was issued for: it answers only that ceremony. */
export type ChallengePurpose = 'register' | 'sign_in' | 'second_factor';

export interface NewChallenge {
  challenge: string;
  purpose: ChallengePurpose;
  /** The member registering or answering the second step; null for a usernameless sign-in. */
  userId: string | null;
  expiresAt: Date;
}

export type NewPasskey = Omit<PasskeyRow, 'id' | 'lastUsedAt'>;

/** The passkeys and the outstanding WebAuthn challenges. A member's own rows are read and
 *  changed by that member's id; a credential id is how a sign-in names its passkey. */
export class PasskeyRepository {
  constructor(private readonly db: Database) {}

  /** Stores a new challenge and sweeps the expired ones, so the table stays small. */
  async insertChallenge(challenge: NewChallenge, now: Date): Promise<void> {
    await this.db.delete(webauthnChallenges).where(lte(webauthnChallenges.expiresAt, now));
    await this.db.insert(webauthnChallenges).values(challenge);
  }

  /** Uses the challenge up if it is live and was issued for this purpose and member: false
   *  when it never was, expired or was already used (one statement, so only one use wins). */
  async claimChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    userId: string | null,
    now: Date,
  ): Promise<boolean> {
    const claimed = await this.db
      .delete(webauthnChallenges)
      .where(
        and(
          eq(webauthnChallenges.challenge, challenge),
          eq(webauthnChallenges.purpose, purpose),
          userId === null
            ? isNull(webauthnChallenges.userId)
            : eq(webauthnChallenges.userId, userId),
          gt(webauthnChallenges.expiresAt, now),
        ),
      )
      .returning({ challenge: webauthnChallenges.challenge });
    return claimed.length === 1;
  }

  list(userId: string): Promise<PasskeyRow[]> {
    return this.db
      .select()
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
      .orderBy(asc(passkeys.createdAt), asc(passkeys.id));
  }

  async findByCredentialId(credentialId: string): Promise<PasskeyRow | undefined> {
    const [row] = await this.db
      .select()
      .from(passkeys)
      .where(eq(passkeys.credentialId, credentialId));
    return row;
  }

  /** The new row, or null when this credential is registered already. */
  async insert(passkey: NewPasskey): Promise<PasskeyRow | null> {
    try {
      const [row] = await this.db.insert(passkeys).values(passkey).returning();
      return row ?? null;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** Records a sign-in: false when another sign-in moved the counter first (a cloned key, or
   *  the same signature twice), so at most one use per counter value is accepted. */
  async recordUse(passkey: PasskeyRow, counter: number, now: Date): Promise<boolean> {
    const updated = await this.db
      .update(passkeys)
      .set({ counter, lastUsedAt: now })
      .where(
        and(
          eq(passkeys.userId, passkey.userId),
          eq(passkeys.id, passkey.id),
          eq(passkeys.counter, passkey.counter),
        ),
      )
      .returning({ id: passkeys.id });
    return updated.length === 1;
  }

  /** The removed row, or undefined when the member has no passkey with this id. */
  async delete(userId: string, id: string): Promise<PasskeyRow | undefined> {
    const [row] = await this.db
      .delete(passkeys)
      .where(and(eq(passkeys.userId, userId), eq(passkeys.id, id)))
      .returning();
    return row;
  }
}
