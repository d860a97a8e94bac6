import { and, count, desc, eq, gt, isNotNull, isNull, lt, ne, sql, type Column } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { isUniqueViolation } from '#api/db/errors';
import {
  pushSubscriptions,
  emailConfirmations,
  passkeys,
  passwordResetKeys,
  refreshTokens,
  sessions,
  socialAccounts,
  users,
  type PasswordResetKeyRow,
  type RefreshTokenRow,
  type SessionRow,
  type SocialAccountRow,
  type UserRow,
  type EmailConfirmationRow,
} from '#api/db/schema';
import type { SocialProvider } from '@dental/contracts';
import { PointsLedger } from '#api/db/points-ledger';

export type NewUser = Pick<
  UserRow,
  | 'email'
  | 'username'
  | 'phone'
  | 'passwordHash'
  | 'customerLevel'
  | 'points'
  | 'pointsExpiredAt'
  | 'emailConfirmedAt'
>;

/** Sessions to end: one, every one but the current ('Sign out everywhere else', a password
 *  change), or all (password reset, deactivation). */
export type SessionSelection = { only: string } | { allBut: string } | 'all';

/** When a live session began, was last authenticated and last used. */
export type SessionTimes = Pick<SessionRow, 'createdAt' | 'authenticatedAt' | 'lastUsedAt'>;

/** A use of a session is written only when all of these hold (see `useSession`). */
export interface SessionUseRecord {
  now: Date;
  /** The last recorded use is older than this. */
  lastUsedBefore: Date;
  /** ...but not so old that the session is idle... */
  lastUsedAfter: Date;
  /** ...and the session began after this (it has not reached its lifetime). */
  createdAfter: Date;
}

export interface NewSession {
  id: string;
  userId: string;
  now: Date;
  userAgent: string | null;
  ip: string | null;
}

/**
 * The only code that reads or writes the ways in: credentials, sessions, refresh tokens, reset
 * keys and linked social accounts. Queries about a member's own rows take that member's id;
 * lookups by e-mail, refresh token or reset key are the ways a caller proves who they are, so
 * they cannot.
 */
export class AuthRepository {
  constructor(private readonly db: Database) {}

  // The session check runs on every authenticated request: built once and prepared on the
  // server, so no query is built or planned per request (docs/decisions/api-request-cost.md).
  private useSessionStatement?: ReturnType<AuthRepository['prepareUseSession']>;

  /** The same repository in the transaction `tx`. */
  in(tx: Database): AuthRepository {
    return new AuthRepository(tx);
  }

  /** Runs `work` in one transaction: everything it writes commits together or not at all. */
  transaction<T>(work: (repository: AuthRepository) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(this.in(tx)));
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

  /** The new row, or null when the e-mail (in any letter case) is already registered. Its
   *  sign-up bonus is the first row of its points ledger, written in the same transaction. */
  async insertUser(user: NewUser, now: Date): Promise<UserRow | null> {
    try {
      return await this.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(users)
          .values({ ...user, createdAt: now, updatedAt: now })
          .returning();
        if (row === undefined) return null;
        if (row.points > 0) await new PointsLedger(tx).recordSignUpGrant(row, now);
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** A new confirmation link for `email`; every earlier unused link of the member stops working,
   *  so only the newest address asked for can be confirmed. */
  async replaceEmailConfirmation(
    row: Pick<EmailConfirmationRow, 'userId' | 'email' | 'keyHash' | 'createdAt' | 'expiresAt'>,
  ): Promise<void> {
    await this.db
      .update(emailConfirmations)
      .set({ usedAt: row.createdAt })
      .where(and(eq(emailConfirmations.userId, row.userId), isNull(emailConfirmations.usedAt)));
    await this.db.insert(emailConfirmations).values(row);
  }

  /** Uses up the link whose key hashes to `keyHash` while it is unused and unexpired, in one
   *  statement, so two requests with one key cannot both get it. */
  async claimEmailConfirmation(
    keyHash: string,
    now: Date,
  ): Promise<Pick<EmailConfirmationRow, 'userId' | 'email' | 'keyHash'> | undefined> {
    const [row] = await this.db
      .update(emailConfirmations)
      .set({ usedAt: now })
      .where(
        and(
          eq(emailConfirmations.keyHash, keyHash),
          isNull(emailConfirmations.usedAt),
          gt(emailConfirmations.expiresAt, now),
        ),
      )
      .returning({
        userId: emailConfirmations.userId,
        email: emailConfirmations.email,
        keyHash: emailConfirmations.keyHash,
      });
    return row;
  }

  /**
   * Makes `email` the active member's confirmed address. Answers the member as they were before
   * (to tell the old address), undefined when the account is gone or deactivated, or 'taken'
   * when another account holds the address by now.
   */
  async confirmEmail(
    userId: string,
    email: string,
    now: Date,
  ): Promise<{ before: UserRow; after: UserRow } | 'taken' | undefined> {
    const [before] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deactivatedAt)))
      .for('update');
    if (before === undefined) return undefined;
    try {
      const [after] = await this.db
        .update(users)
        .set({ email, emailConfirmedAt: now, updatedAt: now })
        .where(eq(users.id, userId))
        .returning();
      if (after === undefined) return undefined;
      return { before, after };
    } catch (error) {
      if (isUniqueViolation(error)) return 'taken';
      throw error;
    }
  }

  /** Whether another account uses `email` (in any letter case). */
  async emailTakenByOther(userId: string, email: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.email}) = lower(${email})`, ne(users.id, userId)));
    return row !== undefined;
  }

  /** The newest link's address, to send it again. */
  async newestEmailConfirmation(userId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ email: emailConfirmations.email })
      .from(emailConfirmations)
      .where(and(eq(emailConfirmations.userId, userId), isNull(emailConfirmations.usedAt)))
      .orderBy(desc(emailConfirmations.createdAt))
      .limit(1);
    return row?.email;
  }

  /** The member's address counts as confirmed from `now` unless it already was. */
  async markEmailConfirmed(userId: string, now: Date): Promise<void> {
    await this.db
      .update(users)
      .set({ emailConfirmedAt: sql`coalesce(${users.emailConfirmedAt}, ${now})` })
      .where(eq(users.id, userId));
  }

  async updatePasswordHash(userId: string, passwordHash: string, now: Date): Promise<void> {
    await this.db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
  }

  /** A session begins at sign-in: created, authenticated and used now. */
  async insertSession(session: NewSession): Promise<void> {
    const { id, userId, now, userAgent, ip } = session;
    await this.db
      .insert(sessions)
      .values({ id, userId, createdAt: now, authenticatedAt: now, lastUsedAt: now, userAgent, ip });
  }

  async findSession(userId: string, sessionId: string): Promise<SessionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), eq(sessions.id, sessionId)));
    return row;
  }

  /**
   * The times of a session that has not ended, of a member who is not deactivated, in ONE
   * statement — the authentication of every API call (docs/decisions/session-timeouts.md). The
   * same statement records the use when `record` allows it (at most once a minute): a
   * data-modifying CTE, whose change the SELECT does not see, so the answer is the use before.
   */
  async useSession(
    userId: string,
    sessionId: string,
    record: SessionUseRecord,
  ): Promise<(SessionTimes & Pick<UserRow, 'role'>) | undefined> {
    this.useSessionStatement ??= this.prepareUseSession();
    const [row] = await this.useSessionStatement.execute({ userId, sessionId, ...record });
    return row;
  }

  private prepareUseSession() {
    const thisSession = and(
      eq(sessions.userId, sql.placeholder('userId')),
      eq(sessions.id, sql.placeholder('sessionId')),
    );
    const recordUse = this.db.$with('record_use').as(
      this.db
        .update(sessions)
        // A placeholder only goes in as SQL here; both drivers send a Date as a timestamptz.
        .set({ lastUsedAt: sql`${sql.placeholder('now')}` })
        .where(
          and(
            thisSession,
            isNull(sessions.endedAt),
            lt(sessions.lastUsedAt, sql.placeholder('lastUsedBefore')),
            gt(sessions.lastUsedAt, sql.placeholder('lastUsedAfter')),
            gt(sessions.createdAt, sql.placeholder('createdAfter')),
          ),
        )
        .returning({ id: sessions.id }),
    );
    return this.db
      .with(recordUse)
      .select({
        createdAt: sessions.createdAt,
        authenticatedAt: sessions.authenticatedAt,
        lastUsedAt: sessions.lastUsedAt,
        role: users.role,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(thisSession, isNull(sessions.endedAt), isNull(users.deactivatedAt)))
      .prepare('use_session');
  }

  /** A refresh is a use too. */
  async recordSessionUse(userId: string, sessionId: string, now: Date): Promise<void> {
    await this.db
      .update(sessions)
      .set({ lastUsedAt: now })
      .where(and(eq(sessions.userId, userId), eq(sessions.id, sessionId)));
  }

  /** The member proved who they are again (a password re-check). */
  async markSessionAuthenticated(userId: string, sessionId: string, now: Date): Promise<void> {
    await this.db
      .update(sessions)
      .set({ authenticatedAt: now })
      .where(
        and(eq(sessions.userId, userId), eq(sessions.id, sessionId), isNull(sessions.endedAt)),
      );
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

  /** Ends the chosen sessions of the member: their access tokens are refused, their refresh
   *  tokens revoked and their devices' notifications turned off (docs/decisions/web-push.md).
   *  Call it in a transaction. */
  async endSessions(userId: string, which: SessionSelection, now: Date): Promise<void> {
    const chosen = (sessionColumn: Column) =>
      which === 'all'
        ? undefined
        : 'only' in which
          ? eq(sessionColumn, which.only)
          : ne(sessionColumn, which.allBut);
    await this.db
      .update(sessions)
      .set({ endedAt: now })
      .where(and(eq(sessions.userId, userId), chosen(sessions.id), isNull(sessions.endedAt)));
    await this.db
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(
        and(
          eq(refreshTokens.userId, userId),
          chosen(refreshTokens.familyId),
          isNull(refreshTokens.revokedAt),
        ),
      );
    await this.db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), chosen(pushSubscriptions.sessionId)));
  }

  /** The member's notification subscriptions by the session they belong to. */
  async pushSubscriptionsBySession(userId: string): Promise<Map<string, string>> {
    const rows = await this.db
      .select({ id: pushSubscriptions.id, sessionId: pushSubscriptions.sessionId })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId));
    return new Map(rows.map((row) => [row.sessionId, row.id]));
  }

  /** The member's sessions that have not been ended, most recently used first (some may have
   *  timed out: the caller checks). */
  openSessions(userId: string): Promise<SessionRow[]> {
    return this.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt)))
      .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt));
  }

  /** Every user agent the member has signed in with, ended sessions included. */
  async signInUserAgents(userId: string): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ userAgent: sessions.userAgent })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNotNull(sessions.userAgent)));
    return rows.flatMap((row) => (row.userAgent === null ? [] : [row.userAgent]));
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

  /** The member a provider's account is linked to (the way a social sign-in names its member). */
  async findUserBySocialAccount(
    provider: SocialProvider,
    subject: string,
  ): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select({ user: users })
      .from(socialAccounts)
      .innerJoin(users, eq(users.id, socialAccounts.userId))
      .where(and(eq(socialAccounts.provider, provider), eq(socialAccounts.subject, subject)));
    return row?.user;
  }

  async listSocialAccounts(userId: string): Promise<SocialAccountRow[]> {
    return this.db.select().from(socialAccounts).where(eq(socialAccounts.userId, userId));
  }

  /** False when that provider account is linked already (to anyone) or the member has one of
   *  that provider: the unique keys decide, also between concurrent requests. */
  async insertSocialAccount(
    link: Pick<SocialAccountRow, 'userId' | 'provider' | 'subject' | 'email' | 'linkedAt'>,
  ): Promise<boolean> {
    try {
      await this.db.insert(socialAccounts).values(link);
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async deleteSocialAccount(
    userId: string,
    provider: SocialProvider,
    linkId: string,
  ): Promise<boolean> {
    const deleted = await this.db
      .delete(socialAccounts)
      .where(
        and(
          eq(socialAccounts.userId, userId),
          eq(socialAccounts.provider, provider),
          eq(socialAccounts.id, linkId),
        ),
      )
      .returning({ id: socialAccounts.id });
    return deleted.length === 1;
  }

  /** How many ways the member has to sign in: a password, each linked social account and each
   *  passkey. The one count behind every last-method refusal; read it after `lockUser`. */
  async signInMethodCount(user: UserRow): Promise<number> {
    const [links] = await this.db
      .select({ total: count() })
      .from(socialAccounts)
      .where(eq(socialAccounts.userId, user.id));
    const [keys] = await this.db
      .select({ total: count() })
      .from(passkeys)
      .where(eq(passkeys.userId, user.id));
    return (user.passwordHash === null ? 0 : 1) + (links?.total ?? 0) + (keys?.total ?? 0);
  }

  /** Serialises changes to one member's ways of signing in (the last-method check). Call it in
   *  a transaction. */
  async lockUser(userId: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, userId)).for('update');
    return row;
  }

  /** After a password change no older reset link may be used. */
  async useAllPasswordResetKeys(userId: string, now: Date): Promise<void> {
    await this.db
      .update(passwordResetKeys)
      .set({ usedAt: now })
      .where(and(eq(passwordResetKeys.userId, userId), isNull(passwordResetKeys.usedAt)));
  }
}
