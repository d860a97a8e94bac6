import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { isUniqueViolation } from '../../db/errors';
import {
  passwordResetKeys,
  refreshTokens,
  users,
  type PasswordResetKeyRow,
  type RefreshTokenRow,
  type UserRow,
} from '../../db/schema';

export type NewUser = Pick<
  UserRow,
  'email' | 'username' | 'phone' | 'passwordHash' | 'customerLevel' | 'points' | 'pointsExpiredAt'
>;

export interface ProfileChanges {
  username?: string;
  phone?: string | null;
}

/**
 * The only code that reads or writes accounts, sessions and reset keys. Queries about a member's
 * own rows take that member's id; lookups by e-mail, refresh token or reset key are the ways a
 * caller proves who they are, so they cannot.
 */
export class AccountRepository {
  constructor(private readonly db: Database) {}

  /** Runs `work` in one transaction: everything it writes commits together or not at all. */
  transaction<T>(work: (repository: AccountRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new AccountRepository(tx)));
  }

  async findUserByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`);
    return row;
  }

  async findUserById(userId: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, userId));
    return row;
  }

  /** The new row, or null when the e-mail (in any letter case) is already registered. */
  async insertUser(user: NewUser, now: Date): Promise<UserRow | null> {
    try {
      const [row] = await this.db
        .insert(users)
        .values({ ...user, createdAt: now, updatedAt: now })
        .returning();
      return row ?? null;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async updateProfile(
    userId: string,
    changes: ProfileChanges,
    now: Date,
  ): Promise<UserRow | undefined> {
    const [row] = await this.db
      .update(users)
      .set({ ...changes, updatedAt: now })
      .where(eq(users.id, userId))
      .returning();
    return row;
  }

  async updatePasswordHash(userId: string, passwordHash: string, now: Date): Promise<void> {
    await this.db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
  }

  async deactivateUser(userId: string, now: Date): Promise<void> {
    await this.db
      .update(users)
      .set({ deactivatedAt: now, updatedAt: now })
      .where(and(eq(users.id, userId), isNull(users.deactivatedAt)));
  }

  async insertRefreshToken(token: {
    userId: string;
    familyId: string;
    tokenHash: string;
    expiresAt: Date;
    createdAt: Date;
  }): Promise<void> {
    await this.db.insert(refreshTokens).values(token);
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshTokenRow | undefined> {
    const [row] = await this.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, tokenHash));
    return row;
  }

  /**
   * Marks the token used if it is still live. False when another request used it first, it
   * was revoked or it expired: a row lock makes concurrent claims of one token see one winner.
   */
  async claimRefreshToken(userId: string, tokenId: string, now: Date): Promise<boolean> {
    const claimed = await this.db
      .update(refreshTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(refreshTokens.userId, userId),
          eq(refreshTokens.id, tokenId),
          isNull(refreshTokens.usedAt),
          isNull(refreshTokens.revokedAt),
          gt(refreshTokens.expiresAt, now),
        ),
      )
      .returning({ id: refreshTokens.id });
    return claimed.length === 1;
  }

  async revokeRefreshFamily(userId: string, familyId: string, now: Date): Promise<void> {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(
        and(
          eq(refreshTokens.userId, userId),
          eq(refreshTokens.familyId, familyId),
          isNull(refreshTokens.revokedAt),
        ),
      );
  }

  async revokeAllRefreshTokens(userId: string, now: Date): Promise<void> {
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
  }

  async insertPasswordResetKey(key: {
    userId: string;
    keyHash: string;
    expiresAt: Date;
    createdAt: Date;
  }): Promise<void> {
    await this.db.insert(passwordResetKeys).values(key);
  }

  async findPasswordResetKey(keyHash: string): Promise<PasswordResetKeyRow | undefined> {
    const [row] = await this.db
      .select()
      .from(passwordResetKeys)
      .where(eq(passwordResetKeys.keyHash, keyHash));
    return row;
  }

  /** Marks the key used if it is still unused and unexpired; false when it was not. */
  async claimPasswordResetKey(userId: string, keyId: string, now: Date): Promise<boolean> {
    const claimed = await this.db
      .update(passwordResetKeys)
      .set({ usedAt: now })
      .where(
        and(
          eq(passwordResetKeys.userId, userId),
          eq(passwordResetKeys.id, keyId),
          isNull(passwordResetKeys.usedAt),
          gt(passwordResetKeys.expiresAt, now),
        ),
      )
      .returning({ id: passwordResetKeys.id });
    return claimed.length === 1;
  }

  /** After a password change no older reset link may be used. */
  async useAllPasswordResetKeys(userId: string, now: Date): Promise<void> {
    await this.db
      .update(passwordResetKeys)
      .set({ usedAt: now })
      .where(and(eq(passwordResetKeys.userId, userId), isNull(passwordResetKeys.usedAt)));
  }
}
