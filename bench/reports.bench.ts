import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { OralPhotoRow } from '../apps/api/src/db/schema';
import {
  AccessiblePdf,
  AccessiblePdfFile,
  type TaggedPdf,
} from '../apps/api/src/lib/accessible-pdf';
import type { MemberRecord } from '../apps/api/src/modules/data-export/data-export.repository';
import {
  reportPeriod,
  writeTreatmentHistory,
} from '../apps/api/src/modules/reports/report-content';

const images = 100;

/** A phone photo's worth of JPEG: 2000 × 1500 of noise, which compresses as badly as a real one. */
async function photoJpeg(seed: number): Promise<Buffer> {
  const width = 2000;
  const height = 1500;
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed + 1;
  for (let index = 0; index < pixels.length; index++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    pixels[index] = state >> 23;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

function photo(index: number, jpeg: Buffer): OralPhotoRow {
  const at = new Date(Date.UTC(2026, 0, 1 + index));
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    userId: '00000000-0000-4000-8000-000000000000',
    shootDate: at.toISOString().slice(0, 10),
    photoType: index % 2 === 0 ? 'Photo' : 'X-ray',
    note: '',
    blobKey: `photo-${String(index % 4)}`,
    contentType: 'image/jpeg',
    sizeBytes: jpeg.length,
    thumbnailKey: `thumb-${String(index)}`,
    thumbnailSizeBytes: 0,
    originalKey: null,
    originalSizeBytes: null,
    teeth: [11 + (index % 8)],
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * A treatment history report of 100 photos (2000 × 1500 JPEGs, about 1 MB each, four distinct
 * ones read again as the store would hand them over): the time to write the PDF, its size, and
 * the process's peak RSS and heap while it is written (docs/decisions/reports.md).
 */
export async function reportsBench(): Promise<void> {
  const jpegs = await Promise.all([0, 1, 2, 3].map(photoJpeg));
  const record: MemberRecord = {
    member: {
      id: '00000000-0000-4000-8000-000000000000',
      username: 'Bench Member',
      email: 'bench@example.com',
      phone: null,
      createdAt: new Date('2025-01-01T00:00:00Z'),
      givenName: null,
      familyName: null,
      birthDate: null,
      sex: null,
    },
    photos: Array.from({ length: images }, (_, index) =>
      photo(index, jpegs[index % 4] ?? Buffer.alloc(0)),
    ),
    records: [],
    appointments: [],
    dentalAiResults: [],
    consultations: [],
    threads: [],
    reviews: [],
  };
  const folder = await mkdtemp(path.join(tmpdir(), 'dental-report-bench-'));
  const mb = (value: number) => `${(value / 1024 / 1024).toFixed(0)} MB`;
  console.log(`treatment history, ${String(images)} photos of ${mb(jpegs[0]?.length ?? 0)} each`);
  const options = { title: 'Bench', lang: 'en', paper: 'A4' } as const;
  /** Writes the report with `pdf` and prints its time, size and the process's peak memory. */
  async function measure(label: string, pdf: TaggedPdf, finish: () => Promise<number>) {
    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }, 5);
    const started = performance.now();
    await writeTreatmentHistory(
      pdf,
      record,
      reportPeriod('2026-01-01', '2026-12-31'),
      (key) => Promise.resolve(Buffer.from(jpegs[Number(key.slice(6))] ?? Buffer.alloc(0))),
      () => new Promise((resolve) => setImmediate(resolve)),
    );
    const size = await finish();
    const elapsed = performance.now() - started;
    clearInterval(sampler);
    console.log(
      `  ${label}: ${(elapsed / 1000).toFixed(2)} s, PDF ${mb(size)}; RSS ${mb(before.rss)} before, peak +${mb(peakRss - before.rss)}; heap peak ${mb(peakHeap)}`,
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
