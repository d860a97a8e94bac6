import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import {
  dataExportBundlePath,
  dataExportLinkDays,
  dataExportNotFoundMessage,
  type DataExport,
  type DataExportStarted,
} from '@dental/contracts';
import type { BlobStore } from '#api/adapters/blob-store/blob-store';
import type { Mailer } from '#api/adapters/mailer';
import type { Clock } from '#api/clock';
import type { DataExportRow } from '#api/db/schema';
import { NotFound } from '#api/domain-errors';
import type { JobQueue, QueueRules } from '#api/jobs/job-queue';
import { htmlParagraphs } from '#api/lib/html';
import type { SignedLinks } from '#api/lib/signed-links';
import type { ErrorLogger } from '#api/logger';
import { userFilesPrefix } from '../files/file-storage';
import { archiveIndex } from './archive-index';
import { ArchiveLayout } from './archive-layout';
import type { DataExportRepository } from './data-export.repository';
import { fhirBundle } from './fhir-bundle';

export const dataExportQueue = 'data-export';
export const dataExportCleanupQueue = 'data-export-cleanup';

/** A member's whole record can take minutes to copy; a worker that died is noticed after this. */
export const dataExportQueueRules: QueueRules = {
  retryLimit: 2,
  retryDelaySeconds: 30,
  expireInSeconds: 30 * 60,
  batchSize: 1,
};

const dayMs = 24 * 3600_000;
/** Progress is written at most this often (in steps of the whole), not once per file. */
const progressSteps = 50;

export interface DataExportJob {
  exportId: string;
}

export interface DataExportSettings {
  publicUrl: string;
  companyName: string;
}

interface ArchiveEntry {
  path: string;
  open(): Promise<Readable>;
}

/** Writes the entries one after another into a zip file: at most one entry is open at a time,
 *  and no entry or archive is held whole in memory. */
async function writeZip(target: string, entries: readonly ArchiveEntry[], mtime: Date) {
  const zip = new ZipFile();
  for (const entry of entries) {
    zip.addReadStreamLazy(entry.path, { mtime }, (done) => {
      entry.open().then(
        (stream) => {
          done(null, stream);
        },
        (error: unknown) => {
          // yazl reads no stream when given an error; the typings still ask for one.
          done(error, undefined as never);
        },
      );
    });
  }
  zip.end();
  await pipeline(zip.outputStream, createWriteStream(target, { mode: 0o600 }));
}

/** Passes the bytes on and reports their SHA-1 (base64, as FHIR's Attachment.hash has it) at the
 *  end. */
function sha1Reporting(source: Readable, report: (sha1: string) => void): Readable {
  const hash = createHash('sha1');
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      report(hash.digest('base64'));
      done();
    },
  });
  source.on('error', (error) => tap.destroy(error));
  return source.pipe(tap);
}

/**
 * 'Download my data' (docs/decisions/data-export.md): a background job copies the member's whole
 * record into a zip with a FHIR R4 Bundle, an offline index.html and every original file, stores
 * it, and e-mails the member; the signed download link works for 7 days, then the archive is
 * deleted.
 */
export class DataExportService {
  constructor(
    private readonly repository: DataExportRepository,
    private readonly blobs: BlobStore,
    private readonly links: SignedLinks,
    private readonly jobs: JobQueue | undefined,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly settings: DataExportSettings,
    private readonly log: ErrorLogger,
  ) {}

  /** Starts an export, or answers the one already being built. */
  async request(userId: string): Promise<DataExportStarted> {
    const building = await this.repository.findUnfinished(userId);
    if (building !== undefined) return { id: building.id, status: building.status };
    const row = await this.repository.create(userId);
    await this.jobs?.send<DataExportJob>(dataExportQueue, [
      { id: row.id, data: { exportId: row.id }, startAfter: this.clock.now() },
    ]);
    return { id: row.id, status: row.status };
  }

  async get(userId: string, id: string): Promise<DataExport> {
    const row = await this.repository.find(userId, id);
    if (row === undefined || this.hasExpired(row)) throw new NotFound(dataExportNotFoundMessage);
    return this.toAnswer(row);
  }

  async list(userId: string): Promise<DataExport[]> {
    const rows = await this.repository.list(userId, this.clock.now());
    return rows.map((row) => this.toAnswer(row));
  }

  /**
   * The job: builds the archive from scratch (a retried attempt starts over), stores it and
   * e-mails the member. The last failed attempt marks the export failed.
   */
  async run(exportId: string, attempt: { retryCount: number }): Promise<void> {
    const row = await this.repository.findById(exportId);
    if (row === undefined || row.status === 'done') return;
    try {
      await this.build(row);
    } catch (error) {
      if (attempt.retryCount >= dataExportQueueRules.retryLimit) {
        await this.repository.update(exportId, {
          status: 'failed',
          expiresAt: new Date(this.clock.now().getTime() + dataExportLinkDays * dayMs),
        });
      }
      throw error;
    }
  }

  /** Deletes archives whose link has expired, then their rows. */
  async removeExpired(): Promise<number> {
    const expired = await this.repository.expired(this.clock.now());
    for (const row of expired) {
      if (row.blobKey !== null) await this.blobs.delete(row.blobKey);
      await this.repository.delete(row.id);
    }
    return expired.length;
  }

  private async build(row: DataExportRow): Promise<void> {
    await this.repository.update(row.id, { status: 'running', progress: 0 });
    const record = await this.repository.memberRecord(row.userId);
    if (record === undefined) {
      // The account was deactivated since: nothing is exported for it.
      await this.repository.update(row.id, { status: 'failed' });
      return;
    }
    const exportedAt = this.clock.now();
    const layout = new ArchiveLayout(row.id);
    const files = layout.files(record);
    const sha1ByPath = new Map<string, string>();
    let progressWrites = Promise.resolve();
    let copied = 0;
    let reportedStep = 0;
    const fileCopied = () => {
      copied += 1;
      const step = Math.floor((copied / (files.length + 1)) * progressSteps);
      if (step <= reportedStep) return;
      reportedStep = step;
      const progress = step / progressSteps;
      progressWrites = progressWrites.then(async () => {
        await this.repository.update(row.id, { progress });
      });
    };
    const folder = await mkdtemp(path.join(os.tmpdir(), 'dental-export-'));
    const zipPath = path.join(folder, 'archive.zip');
    try {
      await writeZip(
        zipPath,
        [
          ...files.map((file) => ({
            path: file.path,
            open: async () => {
              // Read through the integrity check: a changed file fails the export, not silently.
              const blob = await this.blobs.get(file.key);
              if (blob === null) throw new Error(`A stored file is missing: ${file.key}`);
              return sha1Reporting(blob.stream, (sha1) => {
                sha1ByPath.set(file.path, sha1);
                fileCopied();
              });
            },
          })),
          {
            // Written after every file, so that it carries their hashes.
            path: dataExportBundlePath,
            open: () =>
              Promise.resolve(
                Readable.from([
                  JSON.stringify(
                    fhirBundle(record, layout, { ...this.settings, exportedAt, sha1ByPath }),
                    null,
                    2,
                  ),
                ]),
              ),
          },
          {
            path: 'index.html',
            open: () =>
              Promise.resolve(
                Readable.from([
                  archiveIndex(record, layout, {
                    exportedAt,
                    companyName: this.settings.companyName,
                  }),
                ]),
              ),
          },
        ],
        exportedAt,
      );
      await progressWrites;
      const key = `${userFilesPrefix}${row.userId}/exports/${row.id}.zip`;
      await this.blobs.putFile(key, zipPath, 'application/zip');
      const { size } = await stat(zipPath);
      const finishedAt = this.clock.now();
      const done = await this.repository.update(row.id, {
        status: 'done',
        progress: 1,
        blobKey: key,
        sizeBytes: size,
        finishedAt,
        expiresAt: new Date(finishedAt.getTime() + dataExportLinkDays * dayMs),
      });
      if (done === undefined) {
        // The account was deleted while the archive was built.
        await this.blobs.delete(key);
        return;
      }
      await this.sendReady(record.member.email, record.member.username);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  /** The e-mail says where to download, not the link itself: a forwarded or leaked e-mail does
   *  not open the record. */
  private async sendReady(to: string, username: string): Promise<void> {
    const { companyName, publicUrl } = this.settings;
    const lines = [
      `Hello ${username},`,
      `The copy of your dental record you asked for is ready. Sign in and open Profile, then 'Download my data', to download it within ${dataExportLinkDays} days; after that it is deleted and you can ask for a new one.`,
      `${publicUrl}/profile`,
      `If you did not ask for this, change your password and contact us.`,
      companyName,
    ];
    try {
      await this.mailer.send({
        to,
        subject: `Your ${companyName} data is ready to download`,
        text: lines.join('\n\n'),
        html: htmlParagraphs(lines),
      });
    } catch (error) {
      // The archive is ready in the Profile either way; a retry would build it again.
      this.log.error({ err: error }, 'the data export e-mail could not be sent');
    }
  }

  private hasExpired(row: DataExportRow): boolean {
    return row.expiresAt !== null && row.expiresAt <= this.clock.now();
  }

  private toAnswer(row: DataExportRow): DataExport {
    const { blobKey, expiresAt } = row;
    return {
      id: row.id,
      status: row.status,
      progress: row.progress,
      download_url:
        row.status === 'done' && blobKey !== null && expiresAt !== null
          ? this.links.sign(
              {
                key: blobKey,
                contentType: 'application/zip',
                disposition: 'attachment',
                fileName: `dental-record-${row.createdAt.toISOString().slice(0, 10)}.zip`,
              },
              expiresAt,
            )
          : null,
      created_at: row.createdAt.toISOString(),
      expires_at: row.expiresAt?.toISOString() ?? null,
      size_bytes: row.sizeBytes,
    };
  }
}

/** The export job, and a daily removal of archives whose link has expired. */
export async function registerDataExportJobs(
  jobs: JobQueue,
  exports: DataExportService,
): Promise<void> {
  await jobs.register<DataExportJob>(
    dataExportQueue,
    (data, job) => exports.run(data.exportId, job),
    dataExportQueueRules,
  );
  await jobs.register(
    dataExportCleanupQueue,
    async () => {
      await exports.removeExpired();
    },
    {
      retryLimit: 0,
      retryDelaySeconds: 60,
      expireInSeconds: 3600,
      batchSize: 1,
    },
    '17 3 * * *',
  );
}
