import { and, eq, exists, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import { doctors, passkeys, totpCredentials, users } from '#api/db/schema';

/** What the staff guard needs of a staff account on each request. */
export interface StaffProfile {
  name: string;
  email: string;
  practitionerId: string | null;
  secondFactorEnrolled: boolean;
}

/** Staff accounts and their invitations (docs/decisions/clinic-staff.md). */
export class StaffRepository {
  constructor(private readonly db: Database) {}

  // Read on every /api/clinic/ request: built once and prepared on the server.
  private profileStatement?: ReturnType<StaffRepository['prepareProfile']>;

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
}
