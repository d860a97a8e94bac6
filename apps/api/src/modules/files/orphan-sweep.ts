import type { BlobListing, BlobStore } from '#api/adapters/blob-store/blob-store';
import type { Clock } from '#api/clock';
import type { FilesRepository } from './files.repository';
import { sweptPrefixes } from './file-storage';

export interface OrphanSweepOptions {
  /** Blobs younger than this are spared: their row may still be on its way. Default 1 hour. */
  graceMs?: number;
}

export interface SweepResult {
  removedBlobs: number;
  removedTempFiles: number;
}

const batchSize = 500;

/**
 * Removes blobs that no row refers to and temporary files of interrupted writes, once the grace
 * period has passed: what a crash between the blob store and the database left behind
 * (docs/decisions/file-write-order.md). Scheduled on the job queue (files.jobs.ts).
 */
export class OrphanSweep {
  private readonly graceMs: number;
  private running: Promise<SweepResult> | undefined;

  constructor(
    private readonly blobs: BlobStore,
    private readonly repository: FilesRepository,
    private readonly clock: Clock,
    options: OrphanSweepOptions = {},
  ) {
    this.graceMs = options.graceMs ?? 60 * 60 * 1000;
  }

  /** One sweep; a sweep already in progress is joined rather than run twice. */
  sweep(): Promise<SweepResult> {
    this.running ??= this.sweepOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
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
    const removedTempFiles = await this.blobs.removeAbandonedTempFiles(cutoff);
    return { removedBlobs, removedTempFiles };
  }
}
