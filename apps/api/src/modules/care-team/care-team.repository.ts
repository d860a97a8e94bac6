import { and, asc, eq, exists, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '#api/db/client';
import {
  careTeamAccess,
  careTeamSharedItems,
  medicalFiles,
  reservations,
  users,
  type CareTeamAccessRow,
} from '#api/db/schema';

export type SharedKind = 'photo' | 'record';

/** A grant in force with its chosen items (none for 'all'). */
export interface GrantWithItems extends CareTeamAccessRow {
  photoIds: string[];
  recordIds: string[];
}

/** What a staff member may see of one patient. */
export interface PatientVisibility {
  /** The patient's grant, when they share with the practice. */
  scope: CareTeamAccessRow['scope'] | null;
  bookedWithMe: boolean;
}

export interface VisiblePatient extends PatientVisibility {
  id: string;
  username: string;
}

/** An active member: staff hold no patient data, and a deactivated member's access has ended. */
const activeMember = and(eq(users.role, 'member'), isNull(users.deactivatedAt));

/** A booking (not cancelled) of the patient with the practitioner. */
const bookedWith = (practitionerId: string | null) =>
  practitionerId === null
    ? sql`false`
    : sql`exists (select 1 from ${reservations} where ${reservations.userId} = ${users.id}
        and ${reservations.doctorId} = ${practitionerId} and ${reservations.status} = 'booked')`;

/** The only code that reads or writes what members share with the practice. */
export class CareTeamRepository {
  constructor(private readonly db: Database) {}

  /** Replaces the member's grant with this one, items included, in one transaction. */
  replace(
    memberId: string,
    scope: CareTeamAccessRow['scope'],
    items: { photoIds: readonly string[]; recordIds: readonly string[] },
    grantedAt: Date,
  ): Promise<void> {
    return this.db.transaction(async (tx) => {
      // The items go with the grant (on delete cascade).
      await tx.delete(careTeamAccess).where(eq(careTeamAccess.memberId, memberId));
      await tx.insert(careTeamAccess).values({ memberId, scope, grantedAt });
      const rows = [
        ...items.photoIds.map((itemId) => ({ memberId, kind: 'photo' as const, itemId })),
        ...items.recordIds.map((itemId) => ({ memberId, kind: 'record' as const, itemId })),
      ];
      if (rows.length > 0) await tx.insert(careTeamSharedItems).values(rows);
    });
  }

  async find(memberId: string): Promise<GrantWithItems | undefined> {
    const [grant] = await this.db
      .select()
      .from(careTeamAccess)
      .where(eq(careTeamAccess.memberId, memberId));
    if (grant === undefined) return undefined;
    const items = await this.db
      .select({ kind: careTeamSharedItems.kind, itemId: careTeamSharedItems.itemId })
      .from(careTeamSharedItems)
      .where(eq(careTeamSharedItems.memberId, memberId))
      .orderBy(asc(careTeamSharedItems.itemId));
    const of = (kind: SharedKind) =>
      items.filter((item) => item.kind === kind).map((item) => item.itemId);
    return { ...grant, photoIds: of('photo'), recordIds: of('record') };
  }

  /** Ends the grant; false when there was none. */
  async revoke(memberId: string): Promise<boolean> {
    const deleted = await this.db
      .delete(careTeamAccess)
      .where(eq(careTeamAccess.memberId, memberId))
      .returning({ memberId: careTeamAccess.memberId });
    return deleted.length > 0;
  }

  /** The active members who share with the practice or booked with the practitioner, by name. */
  patients(practitionerId: string | null): Promise<VisiblePatient[]> {
    return this.db
      .select({
        id: users.id,
        username: users.username,
        scope: careTeamAccess.scope,
        bookedWithMe: sql<boolean>`${bookedWith(practitionerId)}`,
      })
      .from(users)
      .leftJoin(careTeamAccess, eq(careTeamAccess.memberId, users.id))
      .where(
        and(
          activeMember,
          or(sql`${careTeamAccess.memberId} is not null`, bookedWith(practitionerId)),
        ),
      )
      .orderBy(asc(users.username), asc(users.id));
  }

  /** What the staff member may see of the patient, or undefined for someone they may not
   *  know of: neither sharing nor booked with them, not a member, or deactivated. */
  async visibility(
    patientId: string,
    practitionerId: string | null,
  ): Promise<PatientVisibility | undefined> {
    const [row] = await this.db
      .select({
        scope: careTeamAccess.scope,
        bookedWithMe: sql<boolean>`${bookedWith(practitionerId)}`,
      })
      .from(users)
      .leftJoin(careTeamAccess, eq(careTeamAccess.memberId, users.id))
      .where(and(eq(users.id, patientId), activeMember));
    if (row === undefined || (row.scope === null && !row.bookedWithMe)) return undefined;
    return row;
  }

  /** Whether the member shares this item with the practice now (all, or chosen). */
  async isShared(memberId: string, kind: SharedKind, itemId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ memberId: careTeamAccess.memberId })
      .from(careTeamAccess)
      .innerJoin(users, eq(users.id, careTeamAccess.memberId))
      .where(
        and(
          eq(careTeamAccess.memberId, memberId),
          activeMember,
          or(
            eq(careTeamAccess.scope, 'all'),
            exists(
              this.db
                .select({ one: sql`1` })
                .from(careTeamSharedItems)
                .where(
                  and(
                    eq(careTeamSharedItems.memberId, memberId),
                    eq(careTeamSharedItems.kind, kind),
                    eq(careTeamSharedItems.itemId, itemId),
                  ),
                ),
            ),
          ),
        ),
      );
    return row !== undefined;
  }

  /** The record a medical file belongs to. */
  async recordOfFile(fileId: string): Promise<string | undefined> {
    const [file] = await this.db
      .select({ recordId: medicalFiles.recordId })
      .from(medicalFiles)
      .where(eq(medicalFiles.id, fileId));
    return file?.recordId;
  }

  /** Whether the account is a member's that has not been deactivated. */
  async memberIsActive(memberId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, memberId), activeMember));
    return rows.length > 0;
  }

  /** Whether the account is a staff member's that has not been deactivated. */
  async staffIsActive(userId: string): Promise<boolean> {
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          eq(users.id, userId),
          inArray(users.role, ['practitioner', 'clinic_admin']),
          isNull(users.deactivatedAt),
        ),
      );
    return rows.length > 0;
  }
}

/** Which stored file a blob key is, and whose (the audit's lookup, wired in services.ts). */
export type FileByKey = (
  key: string,
) => Promise<{ memberId: string; resourceType: string; resourceId: string } | undefined>;

/** Whether the member asked something of the practice that lets its staff open the item: a
 *  review of it, or a message it is attached to (the reviews and messages repositories' checks,
 *  wired in services.ts). */
export type OpenedToPractice = (
  memberId: string,
  kind: SharedKind | 'dental_ai',
  itemId: string,
) => Promise<boolean>;

/** Whether a staff member's file link may open the blob key now: the staff account is active, the
 *  file's owner is active, and its photo or record is shared by the owner, or the owner asked the
 *  practice something about its photo, record or Dental AI result. Checked on every open, so a
 *  revoked grant stops the links at once. */
export const staffMayOpen =
  (repository: CareTeamRepository, fileByKey: FileByKey, asked: OpenedToPractice) =>
  async (staffId: string, key: string): Promise<boolean> => {
    const file = await fileByKey(key);
    if (file === undefined || !(await repository.staffIsActive(staffId))) return false;
    const sharedOrAsked = async (kind: SharedKind, itemId: string) =>
      (await repository.isShared(file.memberId, kind, itemId)) ||
      ((await repository.memberIsActive(file.memberId)) &&
        (await asked(file.memberId, kind, itemId)));
    if (file.resourceType === 'photo' || file.resourceType === 'x_ray') {
      return sharedOrAsked('photo', file.resourceId);
    }
    if (file.resourceType === 'dental_ai_result') {
      return (
        (await repository.memberIsActive(file.memberId)) &&
        asked(file.memberId, 'dental_ai', file.resourceId)
      );
    }
    const recordId =
      file.resourceType === 'medical_file'
        ? await repository.recordOfFile(file.resourceId)
        : undefined;
    return recordId !== undefined && sharedOrAsked('record', recordId);
  };
