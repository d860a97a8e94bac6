import path from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import sharp from 'sharp';
import { configPath, dentalAiPaths, dentalAiResult, plans } from '@dental/contracts';
import { letterboxImage } from '../apps/api/src/adapters/detector/letterbox';
import { loggedInMember, measure, printComparison, startApi, withBenchDatabase } from './harness';
import { median } from './median';

const detections = 40;
const shippedModel = path.resolve(import.meta.dirname, '../models/dental-xray-4class.onnx');

/** A 640×640 greyscale JPEG, the size of the data set's panoramics. */
async function panoramicSizedImage(): Promise<Buffer> {
  const side = 640;
  const pixels = Buffer.alloc(side * side);
  for (let index = 0; index < pixels.length; index += 1) {
    const x = index % side;
    const y = Math.floor(index / side);
    pixels[index] = 60 + ((x * 7 + y * 3) % 120);
  }
  return sharp(pixels, { raw: { width: side, height: side, channels: 1 } })
    .jpeg()
    .toBuffer();
}

/**
 * Issue 6 §5: milliseconds per detection through the API (HTTP, image checks, letterbox, worker
 * thread, decoding, storage) next to a bare `session.run` of the same model on the same input
 * size in this process; then another route's requests/s while detections run, to show that
 * inference stays off the event loop.
 */
export async function dentalAiBench(): Promise<void> {
  const image = await panoramicSizedImage();
  const body = JSON.stringify({
    dental_ai: 'wisdom_teeth',
    image_url: `data:image/jpeg;base64,${image.toString('base64')}`,
  });

  // The reference: ONNX Runtime alone, with the worker's session options.
  const session = await InferenceSession.create(shippedModel, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
  });
  const { tensor } = await letterboxImage(image, 288);
  const feeds = { images: new Tensor('float32', tensor, [1, 3, 288, 288]) };
  for (let warmUp = 0; warmUp < 5; warmUp += 1) await session.run(feeds);
  const rawTimes: number[] = [];
  for (let run = 0; run < detections; run += 1) {
    const started = performance.now();
    await session.run(feeds);
    rawTimes.push(performance.now() - started);
  }
  await session.release();

  await withBenchDatabase(async (databaseUrl) => {
    const api = await startApi(databaseUrl);
    try {
      // A Silver member has 10 detections a year, so the runs are shared among many members:
      // enough for the timed runs and for detections to keep running through a load measurement.
      const perMember = plans.Silver.dentalAiUsesPerYear;
      const members: Record<string, string>[] = [];
      for (let count = 0; count < Math.ceil((detections + 2) / perMember) + 40; count += 1) {
        members.push(await loggedInMember(api.url));
      }
      let used = 0;
      const detect = async () => {
        const bearer = members[Math.floor(used / perMember)];
        used += 1;
        const started = performance.now();
        const res = await fetch(`${api.url}${dentalAiPaths.root}`, {
          method: 'POST',
          headers: { ...bearer, 'content-type': 'application/json' },
          body,
        });
        if (res.status !== 201) {
          throw new Error(`Detection answered ${String(res.status)}: ${await res.text()}`);
        }
        dentalAiResult.parse(await res.json());
        return performance.now() - started;
      };
      await detect();
      await detect();
      const apiTimes: number[] = [];
      for (let run = 0; run < detections; run += 1) apiTimes.push(await detect());

      const raw = median(rawTimes);
      const endToEnd = median(apiTimes);
      console.log(
        `Median of ${String(detections)} detections on a 640×640 JPEG, shipped model (288 px input):`,
      );
      console.log(`  session.run alone                 ${raw.toFixed(1)} ms`);
      console.log(`  POST /api/dental-ai/ end to end   ${endToEnd.toFixed(1)} ms`);
      console.log(
        `  ratio API / session.run           ${(endToEnd / raw).toFixed(2)}× (overhead ${(endToEnd - raw).toFixed(1)} ms, ${(((endToEnd - raw) / endToEnd) * 100).toFixed(0)} % of the request; goal ≤ 15 %)`,
      );

      // Event loop: another route's throughput alone, then with two detections always running.
      const configUrl = `${api.url}${configPath}`;
      const quiet = await measure('GET /api/config/ alone', configUrl);
      let busy = true;
      let during = 0;
      const keepDetecting = async () => {
        while (busy && used < members.length * perMember) {
          await detect();
          during += 1;
        }
      };
      const load = [keepDetecting(), keepDetecting()];
      const loaded = await measure('GET /api/config/ during detections', configUrl);
      busy = false;
      await Promise.all(load);
      printComparison('Another route while detections run', quiet, [loaded]);
      console.log(`  detections completed during that measurement: ${String(during)}`);
    } finally {
      await api.close();
    }
  });
}
