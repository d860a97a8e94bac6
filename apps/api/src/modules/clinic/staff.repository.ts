import { and, desc, eq, exists, gt, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { isUniqueViolation } from '#api/db/errors';
import {
  doctors,
  passkeys,
  staffInvitations,
  totpCredentials,
  users,
  type StaffInvitationRow,
} from '#api/db/schema';
import type { StaffRole } from '@dental/contracts';

/** What the staff guard needs of a staff account on each request. */
export interface StaffProfile {
  name: string;
  email: string;
  practitionerId: string | null;
  secondFactorEnrolled: boolean;
}

export type NewInvitation = Pick<
  StaffInvitationRow,
  'email' | 'name' | 'role' | 'tokenHash' | 'invitedBy' | 'createdAt' | 'expiresAt'
>;

/** A staff account as the admin's list shows it. */
export interface StaffAccountRow {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
  deactivatedAt: Date | null;
  practitionerId: string | null;
  invitedAt: Date | null;
}

/** An invitation that can still be accepted at `now`. */
const isOpen = (now: Date) =>
  and(isNull(staffInvitations.acceptedAt), gt(staffInvitations.expiresAt, now));

const invitedAddress = (email: string) => sql`lower(${staffInvitations.email}) = lower(${email})`;

/** Staff accounts and their invitations (docs/decisions/clinic-staff.md). */
export class StaffRepository {
  constructor(private readonly db: Database) {}

  // Read on every /api/clinic/ request: built once and prepared on the server.
  private profileStatement?: ReturnType<StaffRepository['prepareProfile']>;

  /** Runs `work` in one transaction; `tx` carries it to another module's repository. */
  transaction<T>(work: (repository: StaffRepository, tx: Database) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(new StaffRepository(tx), tx));
  }

  /** Serialises the first-admin check of concurrent starts until the transaction ends. */
  async lockFirstAdmin(): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext('clinic-first-admin'))`);
  }

  /** The name, doctor row and second factor of an account, in one query. */
  async profile(userId: string): Promise<StaffProfile | undefined> {
    this.profileStatement ??= this.prepareProfile();
    const [row] = await this.profileStatement.execute({ userId });
    return row;
  }

  private prepareProfile() {
    const userId = sql.placeholder('userId');
    const totp = this.db
      .select({ found: sql`1` })
      .from(totpCredentials)
      .where(and(eq(totpCredentials.userId, userId), isNotNull(totpCredentials.confirmedAt)));
    const passkey = this.db
      .select({ found: sql`1` })
      .from(passkeys)
      .where(eq(passkeys.userId, userId));
    return this.db
      .select({
        name: users.username,
        email: users.email,
        practitionerId: doctors.id,
        secondFactorEnrolled: sql<boolean>`${exists(totp)} or ${exists(passkey)}`,
      })
      .from(users)
      .leftJoin(doctors, eq(doctors.userId, users.id))
      .where(eq(users.id, userId))
      .prepare('staff_profile');
  }

  /** Whether any account, of any role, has this address (in any letter case). */
  async accountExists(email: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`);
    return rows.length > 0;
  }

  async activeAdminExists(): Promise<boolean> {
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'clinic_admin'), isNull(users.deactivatedAt)))
      .limit(1);
    return rows.length > 0;
  }

  /** The open invitation of an address, or of a token's hash. */
  async openInvitation(
    by: { email: string } | { tokenHash: string },
    now: Date,
  ): Promise<StaffInvitationRow | undefined> {
    const which =
      'email' in by ? invitedAddress(by.email) : eq(staffInvitations.tokenHash, by.tokenHash);
    const [row] = await this.db
      .select()
      .from(staffInvitations)
      .where(and(which, isOpen(now)));
    return row;
  }

  /** Ends the open invitations of an address: a new one replaces them. */
  async withdrawOpenInvitations(email: string, now: Date): Promise<void> {
    await this.db
      .update(staffInvitations)
      .set({ expiresAt: now })
      .where(and(invitedAddress(email), isOpen(now)));
  }

  /** Ends one open invitation; false when none had that id. */
  async withdrawInvitation(id: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(staffInvitations)
      .set({ expiresAt: now })
      .where(and(eq(staffInvitations.id, id), isOpen(now)))
      .returning({ id: staffInvitations.id });
    return rows.length === 1;
  }

  async insertInvitation(invitation: NewInvitation): Promise<string> {
    const [row] = await this.db
      .insert(staffInvitations)
      .values(invitation)
      .returning({ id: staffInvitations.id });
    if (row === undefined) throw new Error('The invitation was not saved.');
    return row.id;
  }

  /** Marks the invitation of this token hash used, if it is open: one caller wins. */
  async claimInvitation(tokenHash: string, now: Date): Promise<StaffInvitationRow | undefined> {
    const [row] = await this.db
      .update(staffInvitations)
      .set({ acceptedAt: now })
      .where(and(eq(staffInvitations.tokenHash, tokenHash), isOpen(now)))
      .returning();
    return row;
  }

  async setInvitationAccount(invitationId: string, userId: string): Promise<void> {
    await this.db
      .update(staffInvitations)
      .set({ userId })
      .where(eq(staffInvitations.id, invitationId));
  }

  /** The new staff account's id, or null when the address was taken meanwhile. */
  async insertStaffUser(
    account: { email: string; name: string; role: StaffRole; passwordHash: string },
    now: Date,
  ): Promise<string | null> {
    try {
      const [row] = await this.db
        .insert(users)
        .values({
          email: account.email,
          username: account.name,
          passwordHash: account.passwordHash,
          role: account.role,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: users.id });
      return row?.id ?? null;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** Whether a doctor of this name exists that a practitioner's acceptance could not take
   *  over: one with an account, or one removed from booking. */
  async doctorNameTaken(name: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: doctors.id })
      .from(doctors)
      .where(
        and(
          eq(doctors.name, name),
          sql`(${doctors.userId} is not null or ${doctors.removedAt} is not null)`,
        ),
      );
    return rows.length > 0;
  }

  /**
   * The practitioner's doctor row: the bookable doctor of that name entered before they had an
   * account (their bookings and hours stay), else a new one in UTC with no hours. Null when the
   * name belongs to another account's doctor.
   */
  async linkOrCreateDoctor(name: string, userId: string, now: Date): Promise<string | null> {
    const [linked] = await this.db
      .update(doctors)
      .set({ userId })
      .where(and(eq(doctors.name, name), isNull(doctors.userId), isNull(doctors.removedAt)))
      .returning({ id: doctors.id });
    if (linked !== undefined) return linked.id;
    try {
      const [created] = await this.db
        .insert(doctors)
        .values({ name, timeZone: 'UTC', userId, createdAt: now })
        .returning({ id: doctors.id });
      return created?.id ?? null;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** Every staff account, newest first. */
  async staffAccounts(): Promise<StaffAccountRow[]> {
    const rows = await this.db
      .select({
        id: users.id,
        email: users.email,
        name: users.username,
        role: users.role,
        deactivatedAt: users.deactivatedAt,
        practitionerId: doctors.id,
        invitedAt: staffInvitations.createdAt,
      })
      .from(users)
      .leftJoin(doctors, eq(doctors.userId, users.id))
      .leftJoin(staffInvitations, eq(staffInvitations.userId, users.id))
      .where(ne(users.role, 'member'))
      .orderBy(desc(users.createdAt), users.id);
    // The role filter above leaves staff roles only.
    return rows.map((row) => ({ ...row, role: row.role as StaffRole }));
  }

  /** The invitations that can still be accepted, newest first. */
  async openInvitations(now: Date): Promise<StaffInvitationRow[]> {
    return this.db
      .select()
      .from(staffInvitations)
      .where(isOpen(now))
      .orderBy(desc(staffInvitations.createdAt), staffInvitations.id);
  }

  /** Deactivates a staff account; false when the id names no active staff account. */
  async deactivateStaff(userId: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ deactivatedAt: now, updatedAt: now })
      .where(and(eq(users.id, userId), ne(users.role, 'member'), isNull(users.deactivatedAt)))
      .returning({ id: users.id });
    return rows.length === 1;
  }
}
