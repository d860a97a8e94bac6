import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ArchiveLayout } from '../apps/api/src/modules/data-export/archive-layout';
import {
  fhirRecord,
  type ArchivedDigest,
  type FhirRecord,
} from '../apps/api/src/modules/data-export/fhir-bundle';
import { bundleJson } from '../apps/api/src/modules/data-export/fhir-bundle-json';
import { benchRecord, photoJpeg } from './member-record';
import { mb, peakMemory } from './peak-memory';

const photos = 30;
/** The blob store hands a file over in chunks of this size. */
const chunk = 64 * 1024;

/**
 * The data export's two Bundles for a member with 30 photos (2000 × 1500 JPEGs, about 1 MB each,
 * four distinct ones read again as the store would hand them over), every photo inside as a
 * Binary: written as the export writes them, streamed entry by entry and each file in chunks,
 * and, for comparison, built as one JSON text (docs/decisions/fhir-export.md#decision).
 */
export async function dataExportBench(): Promise<void> {
  const jpegs = await Promise.all([0, 1, 2, 3].map(photoJpeg));
  const record = benchRecord(photos, jpegs);
  const layout = new ArchiveLayout('00000000-0000-4000-8000-00000000e0e0');
  const bytesOf = (key: string) => jpegs[Number(key.slice(6))] ?? Buffer.alloc(0);
  const archived = new Map<string, ArchivedDigest>(
    layout.files(record).map((file) => {
      const bytes = bytesOf(file.key);
      const sha1 = createHash('sha1').update(bytes).digest('base64');
      return [file.path, { sha1, size: bytes.length }];
    }),
  );
  const fhir: FhirRecord = fhirRecord(record, layout, {
    exportedAt: new Date('2026-11-29T00:00:00Z'),
    companyName: 'Bench Dental',
    publicUrl: 'https://bench.example',
    archived,
  });
  const header = { identifier: { value: 'bench' }, timestamp: '2026-11-29T00:00:00Z' };
  const folder = await mkdtemp(path.join(tmpdir(), 'dental-export-bench-'));
  console.log(`two Bundles, ${String(photos)} photos of ${mb(jpegs[0]?.length ?? 0)} each`);
  const report = async (label: string, write: (target: string) => Promise<void>) => {
    const target = path.join(folder, `${label}.json`);
    const { elapsedMs, before, peakRss, peakHeap } = await peakMemory(() => write(target));
    const { size } = await stat(target);
    console.log(
      `  ${label}: ${(elapsedMs / 1000).toFixed(2)} s, ${mb(size)} written; RSS peak +${mb(peakRss - before.rss)}, heap peak +${mb(peakHeap - before.heapUsed)}`,
    );
  };
  try {
    await report('streamed (as the export writes them)', async (target) => {
      for (const kind of ['collection', 'transaction'] as const) {
        const open = (key: string) => {
          const bytes = bytesOf(key);
          const pieces = Array.from({ length: Math.ceil(bytes.length / chunk) }, (_, index) =>
            bytes.subarray(index * chunk, (index + 1) * chunk),
          );
          return Promise.resolve(Readable.from(pieces));
        };
        const stream = Readable.from(bundleJson(kind, fhir, header, (file) => open(file.key)));
        await pipeline(
          stream,
          createWriteStream(target, { flags: kind === 'collection' ? 'w' : 'a' }),
        );
      }
    });
    await report('as one JSON text each', async (target) => {
      for (const kind of ['collection', 'transaction'] as const) {
        const entries = [
          ...fhir.resources.map((resource) => ({ fullUrl: resource.id, resource })),
          ...fhir.binaries.map(({ id, file }) => ({
            fullUrl: id,
            resource: { resourceType: 'Binary', id, data: bytesOf(file.key).toString('base64') },
          })),
        ];
        const text = JSON.stringify(
          { resourceType: 'Bundle', type: kind, entry: entries },
          null,
          2,
        );
        await writeFile(target, text, { flag: kind === 'collection' ? 'w' : 'a' });
      }
    });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
