import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import type { Attachment } from '@medplum/fhirtypes';
import {
  dataImportFailedMessage,
  dataImportHashMismatchMessage,
  dataImportKinds,
  dataImportNotFoundMessage,
  dataImportUnreadableMessage,
  type DataImport,
  type DataImportCounts,
  type DataImportError,
  type DataImportKind,
  type DataImportStarted,
} from '@dental/contracts';
import type { BlobStore } from '#api/adapters/blob-store/blob-store';
import type { Clock } from '#api/clock';
import type { Database } from '#api/db/client';
import type { DataImportRow } from '#api/db/schema';
import { DomainError, NotFound } from '#api/domain-errors';
import type { JobQueue, QueueRules } from '#api/jobs/job-queue';
import type { ErrorLogger } from '#api/logger';
import {
  newBlobKey,
  originalKeyOf,
  thumbnailKeyOf,
  userFilesPrefix,
  type BlobToStore,
  type FileStorage,
} from '../files/file-storage';
import type { UploadAcceptance } from '../uploads/upload-acceptance';
import { planBundle, type Planned, type PlannedKind } from './bundle-plan';
import type { DataImportRepository, ImportedRow } from './data-import.repository';
import { readImportSource, type ImportSource } from './import-source';

export const dataImportQueue = 'data-import';

/** A failed import is reported, not retried: nothing of it was applied, and the member sees why
 *  and can send it again. The one retry is for a worker that died: the queue runs the job again
 *  once it expires, and the claim takes the import over (docs/decisions/data-import.md#job). */
export const dataImportQueueRules: QueueRules = {
  retryLimit: 1,
  retryDelaySeconds: 30,
  expireInSeconds: 30 * 60,
  batchSize: 1,
};

/** Progress is written at most this often (in steps of the whole). */
const progressSteps = 20;

export interface DataImportJob {
  importId: string;
}

/** The upload checks and the blob writes of the record's own features, and the plan's quota. */
export interface DataImportPorts {
  uploads: Pick<UploadAcceptance, 'acceptImportedPhoto' | 'acceptImportedMedicalFile'>;
  files: Pick<FileStorage, 'put' | 'discard'>;
  reserveStorage: (tx: Database, userId: string, addedBytes: number) => Promise<void>;
}

/** Nothing was applied: the import ends `failed` with these errors. */
class ImportRefused extends Error {
  constructor(readonly errors: DataImportError[]) {
    super(errors.map((error) => error.detail).join(' '));
  }
}

const countKey: Record<PlannedKind, (planned: Planned) => DataImportKind> = {
  oral_photo: (planned) =>
    planned.item.kind === 'oral_photo' && planned.item.photoType === 'X-ray' ? 'x_rays' : 'photos',
  medical_record: () => 'medical_records',
  appointment: () => 'appointments',
  dental_ai_result: () => 'dental_ai_results',
};

const noneImported = (): DataImportCounts =>
  Object.fromEntries(dataImportKinds.map((kind) => [kind, 0])) as DataImportCounts;

const sha1Base64 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('base64');

/** An import's rows with the blobs they refer to, before anything is written. */
interface Prepared {
  planned: Planned;
  blobs: BlobToStore[];
  bytes: number;
  imported: ImportedRow;
}

/**
 * 'Import a record' (docs/decisions/data-import.md): a member sends a zip made by 'Download my
 * data' (here or on another installation) or its Bundle alone; a job brings its photos, X-rays,
 * records, appointments and Dental AI results into the member's record, all in one transaction,
 * skipping what the record already holds.
 */
export class DataImportService {
  constructor(
    private readonly repository: DataImportRepository,
    private readonly blobs: BlobStore,
    private readonly ports: DataImportPorts,
    private readonly jobs: JobQueue | undefined,
    private readonly clock: Clock,
    private readonly log: ErrorLogger,
  ) {}

  /** Checks what can be known at once (a zip or JSON, a Bundle in it, its size), keeps the file
   *  for the job and queues it. */
  async request(userId: string, bytes: Buffer): Promise<DataImportStarted> {
    const source = await readImportSource(bytes);
    source.close();
    const id = randomUUID();
    const key = `${userFilesPrefix}${userId}/imports/${id}.upload`;
    await this.blobs.put(key, bytes, 'application/octet-stream');
    try {
      await this.repository.create(id, userId, key);
    } catch (error) {
      await this.ports.files.discard([key]);
      throw error;
    }
    await this.jobs?.send<DataImportJob>(dataImportQueue, [
      { id, data: { importId: id }, startAfter: this.clock.now() },
    ]);
    return { id };
  }

  async get(userId: string, id: string): Promise<DataImport> {
    const row = await this.repository.find(userId, id);
    if (row === undefined) throw new NotFound(dataImportNotFoundMessage);
    return toAnswer(row);
  }

  /** The job: imports the file, or marks the import failed with why; never half of it. */
  async run(importId: string): Promise<void> {
    const now = this.clock.now();
    const staleBefore = new Date(now.getTime() - dataImportQueueRules.expireInSeconds * 1000);
    const row = await this.repository.claim(importId, now, staleBefore);
    if (row === undefined || row.blobKey === null) return;
    try {
      await this.importFile(row, row.blobKey);
    } catch (error) {
      if (!(error instanceof ImportRefused)) {
        this.log.error({ err: error, importId }, 'a data import failed');
      }
      await this.repository.update(importId, {
        status: 'failed',
        errors:
          error instanceof ImportRefused
            ? error.errors
            : [{ entry: null, resource_type: null, detail: dataImportFailedMessage }],
        finishedAt: this.clock.now(),
        blobKey: null,
      });
    }
    await this.ports.files.discard([row.blobKey]);
  }

  private async importFile(row: DataImportRow, key: string): Promise<void> {
    const blob = await this.blobs.get(key);
    if (blob === null) throw new Error(`The file of import ${row.id} is missing`);
    let source: ImportSource;
    try {
      source = await readImportSource(await buffer(blob.stream));
    } catch (error) {
      const detail = error instanceof DomainError ? error.detail : dataImportUnreadableMessage;
      throw new ImportRefused([{ entry: null, resource_type: null, detail }]);
    }
    try {
      await this.importBundle(row, source);
    } finally {
      source.close();
    }
  }

  private async importBundle(row: DataImportRow, source: ImportSource): Promise<void> {
    const { userId } = row;
    const plan = planBundle(source.bundle);
    const errors: DataImportError[] = plan.errors.map((error) => ({
      entry: error.entry,
      resource_type: error.resourceType,
      detail: error.detail,
    }));
    const known = await this.repository.knownSources(
      userId,
      plan.items.map((planned) => ({
        kind: planned.item.kind,
        source: planned.source,
        id: planned.id,
      })),
    );
    let skipped = known.size;
    const progress = this.progressReporter(row.id, plan.items.length);
    /** Bytes of a file of the Bundle: inline, a Binary entry, or a file of the zip. */
    const bytesOf = async (planned: Planned, attachment: Attachment): Promise<Buffer | null> => {
      const { url, data, hash } = attachment;
      const binary = url === undefined ? undefined : plan.binaries.get(url);
      const inline = data ?? binary?.data;
      const bytes =
        inline !== undefined
          ? Buffer.from(inline, 'base64')
          : url === undefined || url.startsWith('urn:')
            ? null
            : await source.file(path.posix.normalize(path.posix.join('fhir', url)));
      if (bytes !== null && hash !== undefined && sha1Base64(bytes) !== hash) {
        throw new ImportRefused([
          {
            entry: planned.source,
            resource_type: planned.resourceType,
            detail: `${dataImportHashMismatchMessage} (${attachment.title ?? url ?? 'a file'})`,
          },
        ]);
      }
      return bytes;
    };
    const prepared: Prepared[] = [];
    const seen = new Set<string>();
    try {
      for (const planned of plan.items) {
        if (!known.has(planned.source)) {
          const outcome = await this.prepare(userId, planned, bytesOf, seen);
          if (outcome === 'duplicate') skipped += 1;
          else if ('detail' in outcome) errors.push(outcome);
          else prepared.push(outcome);
        }
        progress.report();
      }
      await progress.written();
      await this.repository.insertAll(
        userId,
        row.id,
        prepared.map((item) => item.imported),
        (tx) =>
          this.ports.reserveStorage(
            tx,
            userId,
            prepared.reduce((sum, item) => sum + item.bytes, 0),
          ),
      );
    } catch (error) {
      // docs/decisions/file-write-order.md: no row refers to these blobs.
      await this.ports.files.discard(
        prepared.flatMap((item) => item.blobs.map((blob) => blob.key)),
      );
      if (error instanceof DomainError) {
        throw new ImportRefused([{ entry: null, resource_type: null, detail: error.detail }]);
      }
      throw error;
    }
    const imported = noneImported();
    for (const item of prepared) imported[countKey[item.planned.item.kind](item.planned)] += 1;
    await this.repository.update(row.id, {
      status: 'done',
      progress: 1,
      imported,
      skipped,
      errors,
      finishedAt: this.clock.now(),
      blobKey: null,
    });
  }

  /**
   * Checks and stores one entry's files the way an upload's are (type by the bytes, decoding
   * limits, thumbnails), and builds its row; 'duplicate' when its files are in the record
   * already; an error (the entry left out) when a file is missing or refused.
   */
  private async prepare(
    userId: string,
    planned: Planned,
    bytesOf: (planned: Planned, attachment: Attachment) => Promise<Buffer | null>,
    seen: Set<string>,
  ): Promise<Prepared | DataImportError | 'duplicate'> {
    const { item, source } = planned;
    const refused = (detail: string): DataImportError => ({
      entry: source,
      resource_type: planned.resourceType,
      detail: `Not imported: ${detail}`,
    });
    const read = async (attachment: Attachment) => {
      const bytes = await bytesOf(planned, attachment);
      if (bytes === null) throw new MissingFile(attachment.title ?? attachment.url ?? 'a file');
      return bytes;
    };
    /** A file already in the record, or twice in this import. */
    const isDuplicate = async (digests: readonly string[]) => {
      const known = await this.repository.knownFiles(userId, item.kind, digests);
      const duplicate = digests.every(
        (digest) => known.has(digest) || seen.has(`${item.kind}:${digest}`),
      );
      for (const digest of digests) seen.add(`${item.kind}:${digest}`);
      return digests.length > 0 && duplicate;
    };
    try {
      switch (item.kind) {
        case 'appointment':
          return await this.withBlobs(planned, [], true, {
            kind: 'appointment',
            source,
            row: {
              appointmentDate: item.appointmentDate,
              // The export does not say the member's zone; reminders are off, so it only shapes
              // the date filters (docs/decisions/data-import.md#mapping-this-products-export).
              timeZone: 'UTC',
              note: item.note,
              ...(item.createdAt === undefined ? {} : { createdAt: item.createdAt }),
            },
          });
        case 'oral_photo': {
          const image = await this.ports.uploads.acceptImportedPhoto(await read(item.file));
          if (await isDuplicate([image.dicom?.sha256 ?? image.sha256])) return 'duplicate';
          const blobKey = newBlobKey(userId, 'oral-photo', image.extension);
          const originalKey = image.dicom && originalKeyOf(blobKey, image.dicom.extension);
          const blobs: BlobToStore[] = [
            { key: blobKey, bytes: image.bytes, contentType: image.contentType },
            {
              key: thumbnailKeyOf(blobKey),
              bytes: image.thumbnail.bytes,
              contentType: image.thumbnail.contentType,
            },
            ...(image.dicom && originalKey !== undefined
              ? [
                  {
                    key: originalKey,
                    bytes: image.dicom.bytes,
                    contentType: image.dicom.contentType,
                  },
                ]
              : []),
          ];
          return await this.withBlobs(planned, blobs, true, {
            kind: 'oral_photo',
            source,
            row: {
              shootDate: item.shootDate,
              photoType: item.photoType,
              note: item.note,
              teeth: item.teeth,
              blobKey,
              contentType: image.contentType,
              sizeBytes: image.size,
              thumbnailKey: thumbnailKeyOf(blobKey),
              thumbnailSizeBytes: image.thumbnail.bytes.length,
              originalKey: originalKey ?? null,
              originalSizeBytes: image.dicom?.size ?? null,
            },
          });
        }
        case 'medical_record': {
          const files = [];
          for (const file of item.files) {
            files.push({
              ...file,
              accepted: await this.ports.uploads.acceptImportedMedicalFile(
                await read(file.attachment),
                file.fileName,
              ),
            });
          }
          if (await isDuplicate(files.map((file) => file.accepted.sha256))) return 'duplicate';
          const stored = files.map((file) => ({
            ...file,
            key: newBlobKey(userId, 'medical-records', file.accepted.extension),
          }));
          const blobs = stored.map((file) => ({
            key: file.key,
            bytes: file.accepted.bytes,
            contentType: file.accepted.contentType,
          }));
          return await this.withBlobs(planned, blobs, true, {
            kind: 'medical_record',
            source,
            row: {
              title: item.title,
              recordDate: item.recordDate,
              note: item.note,
              ...(item.createdAt === undefined ? {} : { createdAt: item.createdAt }),
              ...(item.updatedAt === undefined ? {} : { updatedAt: item.updatedAt }),
            },
            files: stored.map((file) => ({
              fileName: file.accepted.fileName,
              blobKey: file.key,
              contentType: file.accepted.contentType,
              sizeBytes: file.accepted.size,
              ...(file.createdAt === undefined ? {} : { createdAt: file.createdAt }),
            })),
          });
        }
        case 'dental_ai_result': {
          const image = await this.ports.uploads.acceptImportedPhoto(await read(item.image));
          if (image.dicom !== undefined) return refused('a Dental AI image is not a DICOM file.');
          if (await isDuplicate([image.sha256])) return 'duplicate';
          const blobKey = newBlobKey(userId, 'dental-ai', image.extension);
          const blobs = [{ key: blobKey, bytes: image.bytes, contentType: image.contentType }];
          // Dental AI images do not count against the storage quota.
          return await this.withBlobs(planned, blobs, false, {
            kind: 'dental_ai_result',
            source,
            row: {
              dentalAi: item.dentalAi,
              blobKey,
              contentType: image.contentType,
              imageWidth: image.width,
              imageHeight: image.height,
              detections: item.detections,
              imageKind: item.imageKind,
              modelName: item.modelName,
              modelVersion: item.modelVersion,
              ...(item.createdAt === undefined ? {} : { createdAt: item.createdAt }),
            },
          });
        }
      }
    } catch (error) {
      if (error instanceof MissingFile)
        return refused(`its file ${error.message} is not in the archive.`);
      // A file an upload would refuse (type, size, pixels) leaves its entry out.
      if (error instanceof DomainError && !(error instanceof NotFound))
        return refused(error.detail);
      throw error;
    }
  }

  /** Writes an entry's blobs before any row refers to them (docs/decisions/file-write-order.md);
   *  `quota`: whether they count against the plan's storage. */
  private async withBlobs(
    planned: Planned,
    blobs: BlobToStore[],
    quota: boolean,
    imported: ImportedRow,
  ): Promise<Prepared> {
    await this.ports.files.put(blobs);
    const bytes = quota ? blobs.reduce((sum, blob) => sum + blob.bytes.byteLength, 0) : 0;
    return { planned, blobs, bytes, imported };
  }

  /** Counts entries handled and writes the share done at most `progressSteps` times, one write
   *  after another, so that none lands after the final answer. */
  private progressReporter(importId: string, total: number) {
    let handled = 0;
    let reported = 0;
    let writes = Promise.resolve();
    return {
      report: () => {
        handled += 1;
        const step = Math.floor((handled / (total + 1)) * progressSteps);
        if (step <= reported) return;
        reported = step;
        writes = writes
          .then(() => this.repository.update(importId, { progress: step / progressSteps }))
          .catch((error: unknown) => {
            // Progress is only shown; the import goes on.
            this.log.error({ err: error, importId }, 'data import progress not written');
          });
      },
      written: () => writes,
    };
  }
}

class MissingFile extends Error {}

function toAnswer(row: DataImportRow): DataImport {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    imported: row.imported ?? noneImported(),
    skipped: row.skipped,
    errors: row.errors,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}
