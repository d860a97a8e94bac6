import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { dataExport, dataExportPaths, dataExportStarted, oralPhotoPaths } from '@dental/contracts';
import { ArchiveLayout } from '../apps/api/src/modules/data-export/archive-layout';
import {
  fhirRecord,
  type ArchivedDigest,
  type FhirRecord,
} from '../apps/api/src/modules/data-export/fhir-bundle';
import { bundleJson } from '../apps/api/src/modules/data-export/fhir-bundle-json';
import { addPhotos, loggedInMember, startApi, withBenchDatabase } from './harness';
import { printIssueFigures } from './issue-figures';
import { benchRecord, photoJpeg } from './member-record';
import { mb, peakMemory } from './peak-memory';

const photos = 30;
/** The blob store hands a file over in chunks of this size. */
const chunk = 64 * 1024;

/** `npm run bench -- data-export [--photos 2000]`: the Bundles apart, then a whole export. */
export async function dataExportBench(args: string[]): Promise<void> {
  await bundleBench();
  const { values } = parseArgs({ args, options: { photos: { type: 'string', default: '2000' } } });
  await memberExportBench(Number(values.photos));
}

/**
 * The data export's two Bundles for a member with 30 photos (2000 × 1500 JPEGs, about 1 MB each,
 * four distinct ones read again as the store would hand them over), every photo inside as a
 * Binary: written as the export writes them, streamed entry by entry and each file in chunks,
 * and, for comparison, built as one JSON text (docs/decisions/fhir-export.md#decision).
 */
async function bundleBench(): Promise<void> {
  const jpegs = await Promise.all([0, 1, 2, 3].map((seed) => photoJpeg(seed)));
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

/** The whole export's time may grow with the record; its memory must not (it streams). */
const exportGoals = { seconds: 120, peakRssMb: 128 } as const;

/**
 * 'Download my data' for a member with `photos` photos, as the member asks for it: the photos
 * uploaded through the API (so the blob store holds their bytes), then the export requested and
 * followed until it is done, by the API's own worker in this process; its time and the process's
 * memory peak while it was built.
 */
async function memberExportBench(photos: number): Promise<void> {
  await withBenchDatabase(async (databaseUrl) => {
    const api = await startApi(databaseUrl, { UPLOADS_PER_MINUTE: String(photos * 2) }, true);
    try {
      const bearer = await loggedInMember(api.url);
      const uploadStarted = performance.now();
      // Noise, so that neither the store nor the zip can make the bytes smaller.
      const jpeg = await photoJpeg(7, 640, 480);
      await addPhotos(`${api.url}${oralPhotoPaths.list}`, bearer, 0, photos, jpeg);
      console.log(
        `\nThe data export of a member with ${String(photos)} photos (640 × 480 JPEGs of ${(jpeg.length / 1024).toFixed(0)} KB, uploaded in ${((performance.now() - uploadStarted) / 1000).toFixed(0)} s); load average ${os
          .loadavg()
          .map((value) => value.toFixed(2))
          .join(' ')}`,
      );
      const json = async (res: Response) => {
        if (!res.ok) throw new Error(`${res.url} answered ${String(res.status)}`);
        return (await res.json()) as unknown;
      };
      const { elapsedMs, before, peakRss, peakHeap, result } = await peakMemory(async () => {
        const started = dataExportStarted.parse(
          await json(
            await fetch(`${api.url}${dataExportPaths.root}`, { method: 'POST', headers: bearer }),
          ),
        );
        for (;;) {
          const status = dataExport.parse(
            await json(
              await fetch(`${api.url}${dataExportPaths.one(started.id)}`, { headers: bearer }),
            ),
          );
          if (status.status === 'done' || status.status === 'failed') return status;
          await setTimeout(250);
        }
      });
      if (result.status !== 'done') throw new Error('The export failed.');
      const seconds = elapsedMs / 1000;
      const rssMb = (peakRss - before.rss) / 1024 / 1024;
      console.log(
        `  ${seconds.toFixed(1)} s, archive ${mb(result.size_bytes ?? 0)}; RSS peak +${rssMb.toFixed(0)} MB, heap peak +${mb(peakHeap - before.heapUsed)} (the API and its worker in this process)`,
      );
      printIssueFigures('Data export at 2,000 photos', [
        {
          what: `export of ${String(photos)} photos (this run: ${seconds.toFixed(1)} s)`,
          filed: 'not measured',
          goal: `< ${String(exportGoals.seconds)} s`,
        },
        {
          what: `the process's RSS peak while it is built (this run: +${rssMb.toFixed(0)} MB for an archive of ${mb(result.size_bytes ?? 0)})`,
          filed: 'not measured',
          goal: `< +${String(exportGoals.peakRssMb)} MB, whatever the archive's size (streamed)`,
        },
      ]);
    } finally {
      await api.close();
    }
  });
}
