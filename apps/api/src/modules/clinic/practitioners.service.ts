import { randomUUID } from 'node:crypto';
import {
  practitionerNameTakenMessage,
  type Practitioner,
  type PractitionerList,
  type UpdatePractitionerRequest,
} from '@dental/contracts';
import type { BlobStore } from '#api/adapters/blob-store/blob-store';
import type { Clock } from '#api/clock';
import type { DoctorRow } from '#api/db/schema';
import { Conflict, NotFound } from '#api/domain-errors';
import { portraitLink, portraitPrefix } from '#api/lib/portrait-link';
import type { LinkedFile } from '#api/lib/signed-links';
import type { PractitionerRepository } from './practitioners.repository';

export const practitionerNotFoundMessage = 'This practitioner was not found.';

/** The one upload acceptance path (UploadAcceptance), as far as a portrait needs it. */
export interface ImageAcceptance {
  acceptImage(dataUrl: string): Promise<{ bytes: Buffer; contentType: string; extension: string }>;
}

export interface FileLinks {
  sign(file: LinkedFile): string;
}

/** The doctors as the admin keeps them in the console: name, bio, portrait, removal. */
export class PractitionerService {
  constructor(
    private readonly repository: PractitionerRepository,
    private readonly blobs: BlobStore,
    private readonly uploads: ImageAcceptance,
    private readonly links: FileLinks,
    private readonly clock: Clock,
  ) {}

  async list(): Promise<PractitionerList> {
    const rows = await this.repository.list();
    return { results: rows.map((row) => this.toPractitioner(row)) };
  }

  /**
   * Changes the profile. A new portrait is accepted like a patient's photo and stored before the
   * row names it; the one it replaces is deleted after the row no longer does, and a refused
   * change deletes the new one again (docs/decisions/file-write-order.md).
   */
  async update(id: string, change: UpdatePractitionerRequest): Promise<Practitioner> {
    const current = await this.repository.find(id);
    if (current === undefined) throw new NotFound(practitionerNotFoundMessage);
    let photo: { blobKey: string; contentType: string } | null | undefined;
    if (typeof change.photo === 'string') {
      const accepted = await this.uploads.acceptImage(change.photo);
      photo = {
        blobKey: `${portraitPrefix}${id}/${randomUUID()}.${accepted.extension}`,
        contentType: accepted.contentType,
      };
      await this.blobs.put(photo.blobKey, accepted.bytes, accepted.contentType);
    } else {
      photo = change.photo;
    }
    let updated;
    try {
      updated = await this.repository.update(id, { name: change.name, bio: change.bio, photo });
    } catch (error) {
      if (photo?.blobKey !== undefined) await this.blobs.delete(photo.blobKey);
      throw error;
    }
    if (updated === undefined || updated === 'name-taken') {
      if (photo?.blobKey !== undefined) await this.blobs.delete(photo.blobKey);
      if (updated === undefined) throw new NotFound(practitionerNotFoundMessage);
      throw new Conflict(practitionerNameTakenMessage, { name: [practitionerNameTakenMessage] });
    }
    if (
      photo !== undefined &&
      current.photoBlobKey !== null &&
      current.photoBlobKey !== updated.photoBlobKey
    ) {
      await this.blobs.delete(current.photoBlobKey);
    }
    return this.toPractitioner(updated);
  }

  /** Takes the doctor off the booking screens; their past and booked consultations stay. */
  async remove(id: string): Promise<void> {
    if (!(await this.repository.remove(id, this.clock.now()))) {
      throw new NotFound(practitionerNotFoundMessage);
    }
  }

  private toPractitioner(row: DoctorRow): Practitioner {
    return {
      id: row.id,
      name: row.name,
      bio: row.bio,
      photo_url: portraitLink(this.links, row),
      timezone: row.timeZone,
      slot_minutes: row.slotMinutes,
      has_account: row.userId !== null,
      removed: row.removedAt !== null,
    };
  }
}
