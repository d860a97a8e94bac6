import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { benchRecord, photoJpeg } from './member-record';
import { mb, peakMemory } from './peak-memory';
import {
  AccessiblePdf,
  AccessiblePdfFile,
  type TaggedPdf,
} from '../apps/api/src/lib/accessible-pdf';
import {
  reportPeriod,
  writeTreatmentHistory,
} from '../apps/api/src/modules/reports/report-content';

const images = 100;

/**
 * A treatment history report of 100 photos (2000 × 1500 JPEGs, about 1 MB each, four distinct
 * ones read again as the store would hand them over): the time to write the PDF, its size, and
 * the process's peak RSS and heap while it is written (docs/decisions/reports.md).
 */
export async function reportsBench(): Promise<void> {
  const jpegs = await Promise.all([0, 1, 2, 3].map((seed) => photoJpeg(seed)));
  const record = benchRecord(images, jpegs);
  const folder = await mkdtemp(path.join(tmpdir(), 'dental-report-bench-'));
  console.log(`treatment history, ${String(images)} photos of ${mb(jpegs[0]?.length ?? 0)} each`);
  const options = { title: 'Bench', lang: 'en', paper: 'A4' } as const;
  /** Writes the report with `pdf` and prints its time, size and the process's peak memory. */
  async function measure(label: string, pdf: TaggedPdf, finish: () => Promise<number>) {
    const {
      result: size,
      elapsedMs,
      before,
      peakRss,
      peakHeap,
    } = await peakMemory(async () => {
      await writeTreatmentHistory(
        pdf,
        record,
        reportPeriod('2026-01-01', '2026-12-31'),
        (key) => Promise.resolve(Buffer.from(jpegs[Number(key.slice(6))] ?? Buffer.alloc(0))),
        () => new Promise((resolve) => setImmediate(resolve)),
      );
      return finish();
    });
    console.log(
      `  ${label}: ${(elapsedMs / 1000).toFixed(2)} s, PDF ${mb(size)}; RSS ${mb(before.rss)} before, peak +${mb(peakRss - before.rss)}; heap peak ${mb(peakHeap)}`,
    );
    return peakRss - before.rss;
  }
  try {
    // The file first: RSS the process took for the in-memory run is not given back at once.
    const file = path.join(folder, 'report.pdf');
    const streamed = new AccessiblePdfFile(options, file);
    const toFile = await measure('to a file (as the job writes it)', streamed, () =>
      streamed.finish(),
    );
    const kept = new AccessiblePdf(options);
    const inMemory = await measure('in memory', kept, async () => (await kept.finish()).length);
    console.log(`  peak RSS growth, file ÷ memory: ${(toFile / Math.max(inMemory, 1)).toFixed(2)}`);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
