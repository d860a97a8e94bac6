import {
  maxFilesPerRecord,
  type MedicalFile,
  type MedicalRecord,
  type MedicalRecordListQuery,
  type MedicalRecordOutsideRangeQuery,
  type MedicalRecordUpdate,
  type NewMedicalFileRequest,
  type NewMedicalRecord,
  type OutsideRangeCount,
} from '@dental/contracts';
import { pageOf, type Page } from '#api/lib/pagination';
import type { Clock } from '#api/clock';
import type { MedicalFileRow, MedicalRecordRow } from '#api/db/schema';
import { NotFound, UnprocessableEntity } from '#api/domain-errors';
import { newBlobKey, type FileStorage } from '../files/file-storage';
import type { PlanLimitsService } from '../membership/plan-limits.service';
import type { UploadAcceptance } from '../uploads/upload-acceptance';
import type { MedicalRecordRepository, NewMedicalFile } from './medical-records.repository';
import { insertedRow } from '#api/db/inserted-row';

export const medicalRecordNotFoundMessage = 'This record was not found.';
export const medicalFileNotFoundMessage = 'This file was not found.';
export const tooManyFilesMessage = `A record holds at most ${maxFilesPerRecord} files. Please remove a file first.`;

/** Medical or insurance records with attached images and PDFs
 *  (docs/product/records.md#medical-and-insurance-records). */
export class MedicalRecordService {
  constructor(
    private readonly repository: MedicalRecordRepository,
    private readonly uploads: UploadAcceptance,
    private readonly planLimits: PlanLimitsService,
    private readonly files: FileStorage,
    private readonly clock: Clock,
  ) {}

  /** The member's records in the date range, in the order asked for, bounded. */
  async list(userId: string, query: MedicalRecordListQuery): Promise<Page<MedicalRecord>> {
    const rows = await this.repository.list(
      userId,
      {
        sequence: query.sequence,
        ...(query.startDate === undefined ? {} : { startDate: query.startDate }),
        ...(query.endDate === undefined ? {} : { endDate: query.endDate }),
      },
      query,
    );
    const { items: records, more } = pageOf(rows, query);
    const files = await this.repository.filesOf(
      userId,
      records.map((record) => record.id),
    );
    const items = records.map((record) =>
      this.toMedicalRecord(
        record,
        files.filter((file) => file.recordId === record.id),
      ),
    );
    return { items, more };
  }

  /** How many of the member's records the dates leave out, older and newer
   *  (docs/decisions/older-items-hint.md). */
  outsideRange(userId: string, query: MedicalRecordOutsideRangeQuery): Promise<OutsideRangeCount> {
    return this.repository.countOutside(userId, query);
  }

  async get(userId: string, id: string): Promise<MedicalRecord> {
    const record = await this.repository.find(userId, id);
    if (record === undefined) throw new NotFound(medicalRecordNotFoundMessage);
    return this.toMedicalRecord(record, await this.repository.filesOf(userId, [id]));
  }

  /** The member's records among `ids` with their files, as answered to them; ids that are not
   *  theirs are left out (share links, docs/decisions/share-links.md). */
  async getMany(userId: string, ids: readonly string[]): Promise<MedicalRecord[]> {
    const records = await this.repository.findMany(userId, ids);
    const files = await this.repository.filesOf(
      userId,
      records.map((record) => record.id),
    );
    return records.map((record) =>
      this.toMedicalRecord(
        record,
        files.filter((file) => file.recordId === record.id),
      ),
    );
  }

  /** A record with its first files, each checked by its bytes, all within the storage quota. */
  async create(userId: string, input: NewMedicalRecord): Promise<MedicalRecord> {
    const stored = await this.store(userId, input.medical_files);
    try {
      const [record, files] = await this.repository.transaction(async (records, tx) => {
        await this.planLimits.reserveStorage(tx, userId, totalBytes(stored));
        const now = this.clock.now();
        const row = await records.insert(
          userId,
          { title: input.title, recordDate: input.record_date, note: input.note },
          now,
        );
        return [row, await records.insertFiles(userId, row.id, stored, now)] as const;
      });
      return this.toMedicalRecord(record, files);
    } catch (error) {
      await this.files.discard(stored.map((file) => file.blobKey));
      throw error;
    }
  }

  /** Changes title, date and note; files change through addFile and removeFile. */
  async update(userId: string, id: string, input: MedicalRecordUpdate): Promise<MedicalRecord> {
    const record = await this.repository.update(
      userId,
      id,
      { title: input.title, recordDate: input.record_date, note: input.note },
      this.clock.now(),
    );
    if (record === undefined) throw new NotFound(medicalRecordNotFoundMessage);
    return this.toMedicalRecord(record, await this.repository.filesOf(userId, [id]));
  }

  /** Removes the record and its files' rows, then the stored files. */
  async delete(userId: string, id: string): Promise<void> {
    const deleted = await this.repository.transaction((records) => records.delete(userId, id));
    if (deleted === undefined) throw new NotFound(medicalRecordNotFoundMessage);
    await this.files.discard(deleted.files.map((file) => file.blobKey));
  }

  /** Attaches one more file to the record, within the quota and the files-per-record limit. */
  async addFile(
    userId: string,
    recordId: string,
    input: NewMedicalFileRequest,
  ): Promise<MedicalFile> {
    if ((await this.repository.find(userId, recordId)) === undefined) {
      throw new NotFound(medicalRecordNotFoundMessage);
    }
    const [stored] = await this.store(userId, [input]);
    if (stored === undefined) throw new Error('One file was stored but none was answered');
    try {
      const row = await this.repository.transaction(async (records, tx) => {
        // The quota check locks the member, so concurrent additions count one after another.
        await this.planLimits.reserveStorage(tx, userId, stored.sizeBytes);
        if ((await records.find(userId, recordId)) === undefined) {
          throw new NotFound(medicalRecordNotFoundMessage);
        }
        if ((await records.countFiles(userId, recordId)) >= maxFilesPerRecord) {
          throw new UnprocessableEntity(tooManyFilesMessage);
        }
        return insertedRow(await records.insertFiles(userId, recordId, [stored], this.clock.now()));
      });
      return this.toMedicalFile(row);
    } catch (error) {
      await this.files.discard([stored.blobKey]);
      throw error;
    }
  }

  /** Detaches the file from the record, then removes the stored file. */
  async removeFile(userId: string, recordId: string, fileId: string): Promise<void> {
    const row = await this.repository.deleteFile(userId, recordId, fileId);
    if (row === undefined) throw new NotFound(medicalFileNotFoundMessage);
    await this.files.discard([row.blobKey]);
  }

  /** Accepts every file (bytes decide the type) and writes them before any row refers to them. */
  private async store(
    userId: string,
    files: readonly NewMedicalFileRequest[],
  ): Promise<NewMedicalFile[]> {
    const accepted = [];
    // One at a time: each decoded file is held in memory until it is written.
    for (const file of files) {
      accepted.push(await this.uploads.acceptMedicalFile(file.file_link, file.file_name));
    }
    const stored = accepted.map((file) => ({
      fileName: file.fileName,
      blobKey: newBlobKey(userId, 'medical-records', file.extension),
      contentType: file.contentType,
      sizeBytes: file.size,
      bytes: file.bytes,
    }));
    await this.files.put(
      stored.map((file) => ({
        key: file.blobKey,
        bytes: file.bytes,
        contentType: file.contentType,
      })),
    );
    return stored.map(({ bytes: _bytes, ...file }) => file);
  }

  private toMedicalRecord(record: MedicalRecordRow, files: MedicalFileRow[]): MedicalRecord {
    return {
      id: record.id,
      title: record.title,
      record_date: record.recordDate,
      note: record.note,
      medical_files: files.map((file) => this.toMedicalFile(file)),
    };
  }

  /** A file as answered: downloaded under its name through a signed link. */
  private toMedicalFile(file: MedicalFileRow): MedicalFile {
    return {
      id: file.id,
      file_name: file.fileName,
      file_link: this.files.link({
        key: file.blobKey,
        contentType: file.contentType,
        disposition: 'attachment',
        fileName: file.fileName,
      }),
      content_type: file.contentType,
    };
  }
}

function totalBytes(files: readonly NewMedicalFile[]): number {
  return files.reduce((sum, file) => sum + file.sizeBytes, 0);
}
