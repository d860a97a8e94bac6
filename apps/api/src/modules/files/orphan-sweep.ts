import type { BlobListing, BlobStore } from '../../adapters/blob-store/blob-store';
import { LocalBlobStore } from '../../adapters/blob-store/local-blob-store';
import type { Clock } from '../../clock';
import type { ErrorLogger } from '../account/password-reset.service';
import type { FilesRepository } from './files.repository';
import { sweptPrefixes } from './file-storage';

export interface OrphanSweepOptions {
  /** Blobs younger than this are spared: their row may still be on its way. Default 1 hour. */
  graceMs?: number;
  /** Time between sweeps; default 6 hours. */
  intervalMs?: number;
}

export interface SweepResult {
  removedBlobs: number;
  removedTempFiles: number;
}

const batchSize = 500;

/**
 * Removes blobs that no row refers to and temporary files of interrupted writes, once the grace
 * period has passed: what a crash between the blob store and the database left behind
 * (docs/decisions/file-write-order.md). Runs at start and then periodically.
 */
export class OrphanSweep {
  private readonly graceMs: number;
  private readonly intervalMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SweepResult> | undefined;

  constructor(
    private readonly blobs: BlobStore,
    private readonly repository: FilesRepository,
    private readonly clock: Clock,
    private readonly log: ErrorLogger,
    options: OrphanSweepOptions = {},
  ) {
    this.graceMs = options.graceMs ?? 60 * 60 * 1000;
    this.intervalMs = options.intervalMs ?? 6 * 60 * 60 * 1000;
  }

  /** One sweep; a sweep already in progress is joined rather than run twice. */
  sweep(): Promise<SweepResult> {
    this.running ??= this.sweepOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Sweeps now and then every interval until stop(); failures are logged. */
  start(): void {
    const run = () => {
      this.sweep().catch((error: unknown) => {
        this.log.error({ err: error }, 'the orphan file sweep failed');
      });
    };
    run();
    this.timer = setInterval(run, this.intervalMs);
    // The sweep never keeps the process alive on its own.
    this.timer.unref();
  }

  /** Stops the timer and waits for a sweep in progress (before the database closes). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  private async sweepOnce(): Promise<SweepResult> {
    const cutoff = new Date(this.clock.now().getTime() - this.graceMs);
    let removedBlobs = 0;
    let batch: BlobListing[] = [];
    const flush = async () => {
      const referenced = await this.repository.referencedKeys(batch.map((blob) => blob.key));
      for (const blob of batch) {
        if (referenced.has(blob.key)) continue;
        await this.blobs.delete(blob.key);
        removedBlobs += 1;
      }
      batch = [];
    };
    for (const prefix of sweptPrefixes) {
      for await (const blob of this.blobs.list(prefix)) {
        if (blob.modifiedAt >= cutoff) continue;
        batch.push(blob);
        if (batch.length >= batchSize) await flush();
      }
    }
    await flush();
    const removedTempFiles =
      this.blobs instanceof LocalBlobStore ? await this.blobs.removeAbandonedTempFiles(cutoff) : 0;
    return { removedBlobs, removedTempFiles };
  }
}
