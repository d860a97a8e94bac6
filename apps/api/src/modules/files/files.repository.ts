import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { PlanName } from '@dental/contracts';
import type { Database } from '#api/db/client';
import { storedBytesOf } from '#api/db/stored-bytes';
import {
  complaintImages,
  doctors,
  dataExports,
  dataImports,
  dentalAiResults,
  medicalFiles,
  oralPhotos,
  reservations,
  users,
} from '#api/db/schema';
import { portraitPrefix } from '#api/lib/portrait-link';
import { complaintImagePrefix, userFilesPrefix } from './file-storage';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The only code that reads what a member stores, for quotas and for the orphan sweep. */
export class FilesRepository {
  /** @param db the database, or the transaction an upload is stored in */
  constructor(private readonly db: Database) {}

  /** The same queries inside a transaction. */
  in(tx: Database): FilesRepository {
    return new FilesRepository(tx);
  }

  /**
   * The member's plan, with the member's row locked until the transaction ends: concurrent
   * uploads of one member take turns, so together they cannot pass the quota.
   */
  async lockMember(userId: string): Promise<PlanName | undefined> {
    const [row] = await this.db
      .select({ plan: users.customerLevel })
      .from(users)
      .where(eq(users.id, userId))
      .for('update');
    return row?.plan;
  }

  async planOf(userId: string): Promise<PlanName | undefined> {
    const [row] = await this.db
      .select({ plan: users.customerLevel })
      .from(users)
      .where(eq(users.id, userId));
    return row?.plan;
  }

  /** Photos (image, thumbnail and any DICOM original) and medical files of the member, in
   *  bytes. */
  async storageUsedBytes(userId: string): Promise<number> {
    const [row] = await this.db
      .select({ bytes: storedBytesOf(userId) })
      .from(users)
      .where(eq(users.id, userId));
    return Number(row?.bytes ?? 0);
  }

  /** The member's plan and stored bytes in one query (the Profile reads both on every visit). */
  async planAndStorageUsed(
    userId: string,
  ): Promise<{ plan: PlanName; usedBytes: number } | undefined> {
    const [row] = await this.db
      .select({ plan: users.customerLevel, bytes: storedBytesOf(userId) })
      .from(users)
      .where(eq(users.id, userId));
    return row === undefined ? undefined : { plan: row.plan, usedBytes: Number(row.bytes) };
  }

  /**
   * Whether the member a stored file belongs to still has an active account: `users/<id>/…` is
   * theirs, `consultations/<reservation id>/…` belongs to the reservation's member. A
   * practitioner's portrait is the clinic's, served while it is the doctor's current one.
   */
  async ownerIsActive(key: string): Promise<boolean> {
    const [prefix, id] = key.split('/');
    if (id === undefined || !uuidPattern.test(id)) return false;
    const active = isNull(users.deactivatedAt);
    if (`${prefix}/` === userFilesPrefix) {
      const rows = await this.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, id), active));
      return rows.length > 0;
    }
    if (`${prefix}/` === complaintImagePrefix) {
      const rows = await this.db
        .select({ id: users.id })
        .from(reservations)
        .innerJoin(users, eq(users.id, reservations.userId))
        .where(and(eq(reservations.id, id), active));
      return rows.length > 0;
    }
    if (`${prefix}/` === portraitPrefix) {
      const rows = await this.db
        .select({ id: doctors.id })
        .from(doctors)
        .where(and(eq(doctors.id, id), eq(doctors.photoBlobKey, key)));
      return rows.length > 0;
    }
    return false;
  }

  /** Which of the given blob keys a photo, a medical file, a Dental AI result, a doctor's
   *  consultation summary, a data export or an import waiting for its job still refers to. */
  async referencedKeys(keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const list = [...keys];
    const [
      originals,
      thumbnails,
      dicomFiles,
      attachments,
      detected,
      summaryImages,
      archives,
      imports,
    ] = await Promise.all([
      this.db
        .select({ key: oralPhotos.blobKey })
        .from(oralPhotos)
        .where(inArray(oralPhotos.blobKey, list)),
      this.db
        .select({ key: oralPhotos.thumbnailKey })
        .from(oralPhotos)
        .where(inArray(oralPhotos.thumbnailKey, list)),
      this.db
        .select({ key: oralPhotos.originalKey })
        .from(oralPhotos)
        .where(inArray(oralPhotos.originalKey, list)),
      this.db
        .select({ key: medicalFiles.blobKey })
        .from(medicalFiles)
        .where(inArray(medicalFiles.blobKey, list)),
      this.db
        .select({ key: dentalAiResults.blobKey })
        .from(dentalAiResults)
        .where(inArray(dentalAiResults.blobKey, list)),
      this.db
        .select({ key: complaintImages.blobKey })
        .from(complaintImages)
        .where(inArray(complaintImages.blobKey, list)),
      this.db
        .select({ key: dataExports.blobKey })
        .from(dataExports)
        .where(inArray(dataExports.blobKey, list)),
      this.db
        .select({ key: dataImports.blobKey })
        .from(dataImports)
        .where(inArray(dataImports.blobKey, list)),
    ]);
    return new Set(
      [
        ...originals,
        ...thumbnails,
        ...dicomFiles,
        ...attachments,
        ...detected,
        ...summaryImages,
        ...archives,
        ...imports,
        // Only a DICOM import has an original and only a finished export an archive; the queries
        // matched no null.
      ].flatMap((row) => row.key ?? []),
    );
  }
}
