import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { storedBytesOf } from '#api/db/stored-bytes';
import { PointsLedger } from '#api/db/points-ledger';
import {
  emailConfirmations,
  socialAccounts,
  users,
  type SocialAccountRow,
  type UserRow,
} from '#api/db/schema';

/** What the account answer shows of a linked social account. */
export type SocialAccountLink = Pick<SocialAccountRow, 'id' | 'provider' | 'email'>;

/** The member as the account answer shows them. */
export interface AccountView {
  user: UserRow;
  storedBytes: number;
  links: SocialAccountLink[];
  pendingEmail: string | null;
}

/** The newest unused confirmation link to an address other than the account's: a change of
 *  address that waits for its confirmation. */
const pendingEmailOf = (userId: typeof users.id) => sql<string | null>`(
  select ${emailConfirmations.email} from ${emailConfirmations}
  where ${emailConfirmations.userId} = ${userId} and ${emailConfirmations.usedAt} is null
    and lower(${emailConfirmations.email}) <> lower(${users.email})
  order by ${emailConfirmations.createdAt} desc limit 1)`;

export type ProfileChanges = Partial<
  Pick<UserRow, 'username' | 'phone' | 'givenName' | 'familyName' | 'birthDate' | 'sex'>
>;

/** The member's profile: the only code that reads or writes it. Every query takes the member's
 *  id. */
export class AccountRepository {
  constructor(private readonly db: Database) {}

  // The Profile and the web app's layout read the account view on every visit: built once and
  // prepared on the server (docs/decisions/api-request-cost.md).
  private accountViewStatement?: ReturnType<AccountRepository['prepareAccountView']>;

  /** Runs `work` in one transaction; `tx` carries it to another module's repository. */
  transaction<T>(work: (repository: AccountRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new AccountRepository(tx), tx));
  }

  async findUserById(userId: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, userId));
    return row;
  }

  /** The member, their stored bytes and linked social accounts in one prepared statement: the
   *  Profile and the web app's layout read it on every visit. */
  /** Expires the member's points when their year has ended (docs/decisions/points-shop.md). */
  expirePoints(userId: string, now: Date): Promise<void> {
    return this.db.transaction((tx) => new PointsLedger(tx).expireDue(userId, now));
  }

  async findAccountView(userId: string): Promise<AccountView | undefined> {
    this.accountViewStatement ??= this.prepareAccountView();
    const rows = await this.accountViewStatement.execute({ userId });
    const [first] = rows;
    if (first === undefined) return undefined;
    return {
      user: first.user,
      storedBytes: Number(first.storedBytes),
      links: rows.flatMap(({ link }) => (link === null ? [] : [link])),
      pendingEmail: first.pendingEmail,
    };
  }

  private prepareAccountView() {
    return this.db
      .select({
        user: users,
        storedBytes: storedBytesOf(users.id),
        pendingEmail: pendingEmailOf(users.id),
        link: {
          id: socialAccounts.id,
          provider: socialAccounts.provider,
          email: socialAccounts.email,
        },
      })
      .from(users)
      .leftJoin(socialAccounts, eq(socialAccounts.userId, users.id))
      .where(eq(users.id, sql.placeholder('userId')))
      .prepare('find_account_view');
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

  async acceptUploadDisclaimer(userId: string, now: Date): Promise<UserRow | undefined> {
    const [row] = await this.db
      .update(users)
      .set({
        uploadDisclaimerAcceptedAt: sql`coalesce(${users.uploadDisclaimerAcceptedAt}, ${now})`,
      })
      .where(eq(users.id, userId))
      .returning();
    return row;
  }

  async deactivateUser(userId: string, now: Date): Promise<void> {
    await this.db
      .update(users)
      .set({ deactivatedAt: now, updatedAt: now })
      .where(and(eq(users.id, userId), isNull(users.deactivatedAt)));
  }
}
