import { get } from 'node:http';
import { accountPaths, oralPhotoList, oralPhotoPaths } from '@dental/contracts';
import {
  addPhotos,
  benchDurationSeconds,
  interleavedMedians,
  loggedInMember,
  measure,
  measureBareRoute,
  printComparison,
  startApi,
  webPageSize,
  withBenchDatabase,
} from './harness';
import { printIssueFigures } from './issue-figures';

const photoCounts = [200, 2000] as const;
const pageSize = 50;
const rounds = 3;

/**
 * GET /api/oral-photo/ for a member with 200 photos (the whole list, as a
 * client without ?limit= reads it, and the web app's first page) and with 2,000 (its first page of
 * 50), next to GET /api/account/ in the same run (goal: ≥ 0.5× its requests/s, p99 under 30 ms)
 * and the bare route.
 */
export async function oralPhotoBench(): Promise<void> {
  await withBenchDatabase(async (databaseUrl) => {
    // The list is filled faster than the upload limit lets a member add photos.
    const api = await startApi(databaseUrl, { UPLOADS_PER_MINUTE: String(photoCounts[1] * 2) });
    try {
      const bearer = await loggedInMember(api.url);
      const listUrl = `${api.url}${oralPhotoPaths.list}`;
      const listed = async (url: string, expected: number) => {
        const photos = oralPhotoList.parse(await (await fetch(url, { headers: bearer })).json());
        if (photos.length !== expected) {
          throw new Error(`${url} holds ${String(photos.length)} photos, not ${String(expected)}`);
        }
      };

      const [whole, paged] = photoCounts;
      await addPhotos(listUrl, bearer, 0, whole);
      await listed(listUrl, whole);
      const wholeList = await measure(
        `GET /api/oral-photo/ (all ${String(whole)} photos)`,
        listUrl,
        bearer,
      );
      const webPage = `${listUrl}?limit=${String(webPageSize)}`;
      await listed(webPage, webPageSize);
      const webPageLabel = `GET /api/oral-photo/?limit=${String(webPageSize)} (${String(whole)} photos, the web app's page)`;
      // As a browser asks for it: the same page, Brotli-compressed (docs/decisions/api-compression.md).
      const asBrowser = { ...bearer, 'accept-encoding': 'gzip, deflate, br, zstd' };
      // The goal's ratio, from rounds that take turns: this machine's speed drifts from one minute
      // to the next.
      const [account, webFirstPage, webFirstPageBrotli] = await interleavedMedians(rounds, [
        () => measure('GET /api/account/', `${api.url}${accountPaths.account}`, bearer),
        () => measure(webPageLabel, webPage, bearer),
        () => measure(`${webPageLabel}, Brotli`, webPage, asBrowser),
      ]);
      // Bytes as they travel (fetch would decode them).
      const pageBytes = (headers: Record<string, string>) =>
        new Promise<number>((resolve, reject) => {
          get(webPage, { headers }, (res) => {
            let bytes = 0;
            res.on('data', (chunk: Buffer) => {
              bytes += chunk.length;
            });
            res.on('end', () => {
              resolve(bytes);
            });
            res.on('error', reject);
          }).on('error', reject);
        });
      const [plainBytes, brotliBytes] = [await pageBytes(bearer), await pageBytes(asBrowser)];
      await addPhotos(listUrl, bearer, whole, paged);
      const firstPage = `${listUrl}?limit=${String(pageSize)}`;
      await listed(firstPage, pageSize);
      const pagedList = await measure(
        `GET /api/oral-photo/?limit=${String(pageSize)} (${String(paged)} photos)`,
        firstPage,
        bearer,
      );
      const bare = await measureBareRoute();
      printComparison(
        `Photos API on PostgreSQL, 10 connections, ${String(benchDurationSeconds)} s each (the account and the web app's page: median of ${String(rounds)} interleaved rounds), 127.0.0.1`,
        account,
        [wholeList, webFirstPage, webFirstPageBrotli, pagedList, bare],
      );
      console.log(
        `  the web app's page on the wire: ${(plainBytes / 1000).toFixed(1)} kB as JSON, ${(brotliBytes / 1000).toFixed(1)} kB in Brotli`,
      );
      printIssueFigures('Performance review', [
        {
          what: 'GET /api/oral-photo/ of a member with 200 photos',
          filed: '145–176 requests/s, 0.12× of GET /api/account/, p99 107–193 ms (the whole list)',
          goal: '≥ 0.5× of GET /api/account/, p99 < 30 ms',
        },
      ]);
    } finally {
      await api.close();
    }
  });
}
