import {
  careTeamItemNotFoundMessage,
  clinicPatientNotFoundMessage,
  type CareTeamAccess,
  type CareTeamGrantRequest,
  type ClinicPatientList,
  type MedicalRecord,
  type MedicalRecordListQuery,
  type OralPhoto,
  type OralPhotoListQuery,
  type PageRequest,
} from '@dental/contracts';
import type { Clock } from '#api/clock';
import { NotFound } from '#api/domain-errors';
import { pageOf, type Page } from '#api/lib/pagination';
import type { CareTeamRepository, GrantWithItems } from './care-team.repository';

/** The member's photos and records as their own modules answer them (the photo and record
 *  services, wired in services.ts). */
export interface CareTeamItems<Item, Query> {
  list(userId: string, query: Query): Promise<Page<Item>>;
  getMany(userId: string, ids: readonly string[]): Promise<Item[]>;
}

/** Replaces an item's file links with links scoped to one staff member (the share links'
 *  SharedFiles at the care team's path, wired in services.ts). */
export interface StaffFileLinks {
  scope(
    staffId: string,
    items: { photos: OralPhoto[]; records: MedicalRecord[] },
  ): { photos: OralPhoto[]; records: MedicalRecord[] };
}

/** The staff member reading, as the clinic guard names them (docs/decisions/care-team-access.md). */
export interface StaffReader {
  id: string;
  practitionerId: string | null;
}

const nothingShared: CareTeamAccess = { scope: null, photos: [], records: [], granted_at: null };

/**
 * What a member shares with the practice, and what the practice's staff read of it
 * (docs/decisions/care-team-access.md). Staff see items through the photo and record modules'
 * own answers, with file links scoped to the staff member and checked against the grant on
 * every open.
 */
export class CareTeamService {
  constructor(
    private readonly repository: CareTeamRepository,
    private readonly photos: CareTeamItems<OralPhoto, OralPhotoListQuery>,
    private readonly records: CareTeamItems<MedicalRecord, MedicalRecordListQuery>,
    private readonly staffFiles: StaffFileLinks,
    private readonly clock: Clock,
  ) {}

  /** Replaces the member's grant; every chosen item must be their own, else nothing changes. */
  async grant(memberId: string, request: CareTeamGrantRequest): Promise<CareTeamAccess> {
    if (request.scope === 'all') {
      await this.repository.replace(memberId, 'all', { photoIds: [], recordIds: [] }, this.now());
      return this.access(memberId);
    }
    const photoIds = [...new Set(request.photos ?? [])];
    const recordIds = [...new Set(request.records ?? [])];
    const [photos, records] = await Promise.all([
      this.photos.getMany(memberId, photoIds),
      this.records.getMany(memberId, recordIds),
    ]);
    if (photos.length !== photoIds.length || records.length !== recordIds.length) {
      throw new NotFound(careTeamItemNotFoundMessage);
    }
    await this.repository.replace(memberId, 'chosen', { photoIds, recordIds }, this.now());
    return this.access(memberId);
  }

  async access(memberId: string): Promise<CareTeamAccess> {
    const grant = await this.repository.find(memberId);
    if (grant === undefined) return nothingShared;
    return {
      scope: grant.scope,
      photos: grant.photoIds,
      records: grant.recordIds,
      granted_at: grant.grantedAt.toISOString(),
    };
  }

  /** Stops sharing at once; nothing to stop is no error. */
  async revoke(memberId: string): Promise<void> {
    await this.repository.revoke(memberId);
  }

  async patients(staff: StaffReader): Promise<ClinicPatientList> {
    const rows = await this.repository.patients(staff.practitionerId);
    return {
      results: rows.map((row) => ({
        id: row.id,
        username: row.username,
        shared: row.scope,
        booked_with_me: row.bookedWithMe,
      })),
    };
  }

  /** The patient's shared photos and X-rays, newest first; booked but not shared is none. */
  async oralPhotos(
    staff: StaffReader,
    patientId: string,
    page: PageRequest,
  ): Promise<Page<OralPhoto>> {
    const grant = await this.sharedBy(staff, patientId);
    if (grant === undefined) return { items: [], more: false };
    const shown =
      grant.scope === 'all'
        ? await this.photos.list(patientId, {
            photoType: 'all',
            sequence: 'descending',
            ...page,
          })
        : pageOf((await this.photos.getMany(patientId, grant.photoIds)).slice(page.offset), page);
    return {
      ...shown,
      items: this.staffFiles.scope(staff.id, { photos: shown.items, records: [] }).photos,
    };
  }

  /** The patient's shared records with their files, newest first. */
  async medicalRecords(
    staff: StaffReader,
    patientId: string,
    page: PageRequest,
  ): Promise<Page<MedicalRecord>> {
    const grant = await this.sharedBy(staff, patientId);
    if (grant === undefined) return { items: [], more: false };
    const shown =
      grant.scope === 'all'
        ? await this.records.list(patientId, { sequence: 'descending', ...page })
        : pageOf((await this.records.getMany(patientId, grant.recordIds)).slice(page.offset), page);
    return {
      ...shown,
      items: this.staffFiles.scope(staff.id, { photos: [], records: shown.items }).records,
    };
  }

  /** The patient's grant; undefined when they share nothing; 404 for a patient this staff
   *  member may not know of (neither booked with them nor sharing). */
  private async sharedBy(
    staff: StaffReader,
    patientId: string,
  ): Promise<GrantWithItems | undefined> {
    const visible = await this.repository.visibility(patientId, staff.practitionerId);
    if (visible === undefined) throw new NotFound(clinicPatientNotFoundMessage);
    if (visible.scope === null) return undefined;
    return this.repository.find(patientId);
  }

  private now(): Date {
    return this.clock.now();
  }
}
