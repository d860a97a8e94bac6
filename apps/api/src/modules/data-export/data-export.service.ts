import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import {
  acceptedImageTypes,
  dataExportBundlePath,
  dataExportTransactionPath,
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
import { FileIntegrityError } from '../files/integrity-checked-blob-store';
import { archiveIndex } from './archive-index';
import { ArchiveLayout, type ArchivedFile } from './archive-layout';
import type { DataExportRepository } from './data-export.repository';
import { fhirRecord, type ArchivedDigest, type FhirRecord } from './fhir-bundle';
import { bundleJson, type BundleKind } from './fhir-bundle-json';

export const dataExportQueue = 'data-export';

/** A member's whole record can take minutes to copy, so the queue's own expiry is long; a worker
 *  that died is noticed sooner by its heartbeat (`dataExportStaleAfterMs`). */
export const dataExportQueueRules: QueueRules = {
  retryLimit: 2,
  retryDelaySeconds: 30,
  expireInSeconds: 30 * 60,
  batchSize: 1,
};

/** Builds of one export, restarts after a lost worker included, before it is marked failed. */
const maxAttempts = dataExportQueueRules.retryLimit + 1;
/** A worker building an export writes its heartbeat this often... */
const heartbeatMs = 10_000;
/** ...and an export whose heartbeat is older than this lost its worker (killed, host gone): the
 *  minute's recovery queues it again (docs/decisions/data-export.md). */
export const dataExportStaleAfterMs = 60_000;

const dayMs = 24 * 3600_000;
/** Progress is written at most this often (in steps of the whole), not once per file. */
const progressSteps = 50;

export interface DataExportJob {
  exportId: string;
}

export interface DataExportSettings {
  publicUrl: string;
  companyName: string;
  /** Where archives are built: inside DATA_DIR, the folder operators protect, one folder per
   *  export, so that a build's leftovers can be told apart and removed. */
  buildDir: string;
}

interface ArchiveEntry {
  path: string;
  /** Bytes that are compressed already go in as they are: deflating them costs the export's
   *  time and saves nothing (docs/decisions/data-export.md). */
  stored?: boolean;
  /** The entry's bytes; null leaves it out of the archive. */
  open(): Promise<Readable | null>;
}

/**
 * Writes the entries one after another into a zip file: at most one entry is open at a time, and
 * no entry or archive is held whole in memory. A failing entry stream, yazl or the file rejects
 * the returned promise and closes every stream, instead of reaching the process as an unhandled
 * 'error' event (docs/decisions/stream-error-paths.md).
 */
async function writeZip(target: string, entries: readonly ArchiveEntry[], mtime: Date) {
  const zip = new ZipFile();
  const output = zip.outputStream;
  // A PassThrough, typed by yazl as the plainer NodeJS.ReadableStream that cannot be destroyed.
  if (!(output instanceof Readable)) throw new TypeError('yazl’s output is not a Node.js stream');
  // yazl reports its failures only as 'error' events of the ZipFile.
  zip.on('error', (error: Error) => output.destroy(error));
  const written = pipeline(output, createWriteStream(target, { mode: 0o600 }));
  const added = (async () => {
    for (const entry of entries) {
      const source = await entry.open();
      if (source === null) continue;
      zip.addReadStream(source, entry.path, { mtime, compress: entry.stored !== true });
      try {
        // A failed write ends the wait too, rather than leaving it paused for ever.
        await Promise.race([finished(source), written]);
      } finally {
        source.destroy();
      }
    }
    zip.end();
  })();
  try {
    await Promise.all([written, added]);
  } catch (error) {
    output.destroy();
    throw error;
  }
}

/** JPEG, PNG and WebP are compressed image formats; PDFs, DICOM and text may still shrink. */
const alreadyCompressed = (contentType: string) =>
  (acceptedImageTypes as readonly string[]).includes(contentType);

/** Passes the bytes on and reports their SHA-1 (base64, as FHIR's Attachment.hash has it) and
 *  count at the end. */
function sha1Reporting(source: Readable, report: (digest: ArchivedDigest) => void): Readable {
  const hash = createHash('sha1');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
    flush(done) {
      report({ sha1: hash.digest('base64'), size });
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
    await this.enqueue(row.id, row.id);
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
   * The job: claims the export (one worker at a time builds it), builds the archive from scratch
   * (a retried attempt starts over), stores it and e-mails the member. A failed attempt queues
   * it for the queue's retry; the last one marks it failed.
   */
  async run(exportId: string): Promise<void> {
    const now = this.clock.now();
    const row = await this.repository.claim(exportId, now, this.staleBefore(now));
    // Done, failed, or being built by a live worker: nothing to do.
    if (row === undefined) return;
    if (row.attempts > maxAttempts) {
      await this.fail(exportId);
      return;
    }
    try {
      await this.build(row);
    } catch (error) {
      if (row.attempts >= maxAttempts) await this.fail(exportId);
      else await this.repository.update(exportId, { status: 'queued' });
      throw error;
    }
  }

  /**
   * Runs at start and every minute: exports whose worker died (no heartbeat for
   * `dataExportStaleAfterMs`) are queued again, and build folders no live build owns (a killed
   * process's partial archives) are removed.
   */
  async recoverAbandoned(): Promise<{ requeued: number; foldersRemoved: number }> {
    const staleBefore = this.staleBefore(this.clock.now());
    const requeued = await this.repository.requeueStale(staleBefore);
    // A new job id: the dead worker's job is still held by the queue until it expires.
    for (const id of requeued) await this.enqueue(id, randomUUID());
    let folders: string[];
    try {
      folders = await readdir(this.settings.buildDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return { requeued: 0, foldersRemoved: 0 };
      throw error;
    }
    const live = new Set(await this.repository.liveBuilds(folders, staleBefore));
    const abandoned = folders.filter((folder) => !live.has(folder));
    for (const folder of abandoned) {
      await rm(path.join(this.settings.buildDir, folder), { recursive: true, force: true });
    }
    return { requeued: requeued.length, foldersRemoved: abandoned.length };
  }

  /**
   * 'Sign out everywhere' and a new password end the member's download links (a link handed to a
   * session that is now ended must not keep opening the whole record): the finished archives are
   * deleted, and the member can ask for a new one.
   */
  async withdrawDownloads(userId: string): Promise<void> {
    await this.remove(await this.repository.finished(userId));
  }

  /** Deletes archives whose link has expired, then their rows. */
  async removeExpired(): Promise<number> {
    const expired = await this.repository.expired(this.clock.now());
    await this.remove(expired);
    return expired.length;
  }

  private async remove(rows: readonly DataExportRow[]): Promise<void> {
    for (const row of rows) {
      if (row.blobKey !== null) await this.blobs.delete(row.blobKey);
      await this.repository.delete(row.id);
    }
  }

  private async enqueue(exportId: string, jobId: string): Promise<void> {
    await this.jobs?.send<DataExportJob>(dataExportQueue, [
      { id: jobId, data: { exportId }, startAfter: this.clock.now() },
    ]);
  }

  private async fail(exportId: string): Promise<void> {
    await this.repository.update(exportId, {
      status: 'failed',
      expiresAt: new Date(this.clock.now().getTime() + dataExportLinkDays * dayMs),
    });
  }

  private staleBefore(now: Date): Date {
    return new Date(now.getTime() - dataExportStaleAfterMs);
  }

  /** Keeps the export's heartbeat fresh while `work` runs, so that no recovery takes it over. */
  private async withHeartbeat<T>(exportId: string, work: () => Promise<T>): Promise<T> {
    const timer = setInterval(() => {
      this.repository.beat(exportId, this.clock.now()).catch((error: unknown) => {
        // A missed beat or two is harmless; many make the export look abandoned and rebuilt.
        this.log.error({ err: error, exportId }, 'a data export heartbeat could not be written');
      });
    }, heartbeatMs);
    try {
      return await work();
    } finally {
      clearInterval(timer);
    }
  }

  private async build(row: DataExportRow): Promise<void> {
    const folder = path.join(this.settings.buildDir, row.id);
    // A previous attempt's partial archive, if any, is started over.
    await rm(folder, { recursive: true, force: true });
    await mkdir(folder, { recursive: true, mode: 0o700 });
    try {
      await this.withHeartbeat(row.id, () => this.buildIn(folder, row));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  /** The stored file read through the integrity check, or null (and the file listed as damaged)
   *  when its bytes changed since it was stored. */
  private async openStoredFile(
    exportId: string,
    file: ArchivedFile,
    damaged: ArchivedFile[],
  ): Promise<Readable | null> {
    let blob;
    try {
      blob = await this.blobs.get(file.key);
    } catch (error) {
      if (!(error instanceof FileIntegrityError)) throw error;
      // The member gets the rest of the record and the index names what is missing; the store
      // has counted the mismatch in the metrics.
      this.log.error(
        { exportId, blobKey: file.key },
        'a data export left out a stored file that failed its integrity check',
      );
      damaged.push(file);
      return null;
    }
    if (blob === null) throw new Error(`A stored file is missing: ${file.key}`);
    return blob.stream;
  }

  private async buildIn(folder: string, row: DataExportRow): Promise<void> {
    const record = await this.repository.memberRecord(row.userId);
    if (record === undefined) {
      // The account was deactivated since: nothing is exported for it.
      await this.repository.update(row.id, { status: 'failed' });
      return;
    }
    const exportedAt = this.clock.now();
    const layout = new ArchiveLayout(row.id);
    const files = layout.files(record);
    const archived = new Map<string, ArchivedDigest>();
    const damaged: ArchivedFile[] = [];
    let progressWrites = Promise.resolve();
    let handled = 0;
    let reportedStep = 0;
    const fileHandled = () => {
      handled += 1;
      const step = Math.floor((handled / (files.length + 1)) * progressSteps);
      if (step <= reportedStep) return;
      reportedStep = step;
      const progress = step / progressSteps;
      progressWrites = progressWrites
        .then(async () => {
          await this.repository.update(row.id, { progress });
        })
        .catch((error: unknown) => {
          // Progress is only shown; the archive goes on, and a failed build must not leave
          // this promise rejected with no one waiting for it.
          this.log.error({ err: error, exportId: row.id }, 'data export progress not written');
        });
    };
    const zipPath = path.join(folder, 'archive.zip');
    const bundles: [BundleKind, string][] = [
      ['collection', dataExportBundlePath],
      ['transaction', dataExportTransactionPath],
    ];
    let fhir: FhirRecord | undefined;
    await writeZip(
      zipPath,
      [
        ...files.map((file) => ({
          path: file.path,
          stored: alreadyCompressed(file.contentType),
          open: async () => {
            const stream = await this.openStoredFile(row.id, file, damaged);
            if (stream === null) {
              fileHandled();
              return null;
            }
            return sha1Reporting(stream, (digest) => {
              archived.set(file.path, digest);
              fileHandled();
            });
          },
        })),
        ...bundles.map(([kind, bundlePath]) => ({
          // Written after every file, so that it carries their hashes; each file is read again
          // into its Binary, streamed.
          path: bundlePath,
          open: () => {
            fhir ??= fhirRecord(record, layout, { ...this.settings, exportedAt, archived });
            return Promise.resolve(
              Readable.from(
                bundleJson(
                  kind,
                  fhir,
                  {
                    identifier: { system: `${this.settings.publicUrl}/data-export`, value: row.id },
                    timestamp: exportedAt.toISOString(),
                  },
                  async (file) => {
                    const stream = await this.openStoredFile(row.id, file, []);
                    // Read whole moments ago; gone now means the build must start over.
                    if (stream === null) throw new Error(`A stored file changed: ${file.key}`);
                    return stream;
                  },
                ),
              ),
            );
          },
        })),
        {
          path: 'index.html',
          open: () =>
            Promise.resolve(
              Readable.from([
                archiveIndex(record, layout, {
                  exportedAt,
                  companyName: this.settings.companyName,
                  damaged,
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
