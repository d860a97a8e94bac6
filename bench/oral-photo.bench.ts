import sharp from 'sharp';
import { oralPhotoList, oralPhotoPaths } from '@dental/contracts';
import {
  benchDurationSeconds,
  loggedInMember,
  measure,
  measureBareRoute,
  printComparison,
  startApi,
  withBenchDatabase,
} from './harness';

const photoCount = 200;
const uploadConcurrency = 4;

/** Issue 3 §7: GET /api/oral-photo/ for a member with 200 photos, next to a bare route. */
export async function oralPhotoBench(): Promise<void> {
  await withBenchDatabase(async (databaseUrl) => {
    const api = await startApi(databaseUrl);
    try {
      const bearer = await loggedInMember(api.url);
      const png = await sharp({
        create: { width: 640, height: 480, channels: 3, background: { r: 90, g: 120, b: 200 } },
      })
        .png()
        .toBuffer();
      const imageLink = `data:image/png;base64,${png.toString('base64')}`;
      // The photos go in through the API, as a member would add them (thumbnails included).
      let next = 0;
      const upload = async () => {
        while (next < photoCount) {
          const index = next++;
          const day = new Date(Date.UTC(2026, 0, 1) + index * 24 * 60 * 60 * 1000);
          const res = await fetch(`${api.url}${oralPhotoPaths.list}`, {
            method: 'POST',
            headers: { ...bearer, 'content-type': 'application/json' },
            body: JSON.stringify({
              shoot_date: day.toISOString().slice(0, 10),
              photo_type: index % 2 === 0 ? 'X-ray' : 'Photo',
              note: `Bench photo ${String(index)}`,
              image_link: imageLink,
            }),
          });
          if (res.status !== 201) throw new Error(`Upload answered ${String(res.status)}`);
        }
      };
      await Promise.all(Array.from({ length: uploadConcurrency }, upload));
      const listUrl = `${api.url}${oralPhotoPaths.list}`;
      const check = await fetch(listUrl, { headers: bearer });
      const listed = oralPhotoList.parse(await check.json());
      if (listed.length !== photoCount) {
        throw new Error(
          `The list holds ${String(listed.length)} photos, not ${String(photoCount)}`,
        );
      }
      const photos = await measure(
        `GET /api/oral-photo/ (${String(photoCount)} photos)`,
        listUrl,
        bearer,
      );
      const bare = await measureBareRoute();
      printComparison(
        `Photos API on PostgreSQL, 10 connections, ${String(benchDurationSeconds)} s each, 127.0.0.1`,
        bare,
        [photos],
      );
    } finally {
      await api.close();
    }
  });
}
