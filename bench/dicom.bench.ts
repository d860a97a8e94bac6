import { UploadAcceptance } from '../apps/api/src/modules/uploads/upload-acceptance';
import {
  dicomDataUrl,
  makeDeflatedDicom,
  makeDicom,
} from '../apps/api/test/fixtures/dicom-test-files';
import { median } from './median';

const runs = 5;

/** A 1 ms timer's longest wait while `work` runs: how long the event loop was held at a stretch. */
async function longestBlock(
  work: () => Promise<unknown>,
): Promise<{ blockMs: number; totalMs: number }> {
  let last = performance.now();
  let longest = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearTimeout(timer);
  }
  // The stretch still open when the work ended counts too.
  return {
    blockMs: Math.max(longest, performance.now() - last),
    totalMs: performance.now() - started,
  };
}

/** Stored values that vary across the image, as a detector's do, within 12 bits. */
function detectorValues(count: number): number[] {
  return Array.from({ length: count }, (_, index) => (index * 7919) % 4096);
}

/**
 * The DICOM import's hold on the API's event loop (docs/decisions/dicom-import.md): a 9 MB
 * uncompressed panoramic X-ray, and the most pixels the cap allows in the fewest bytes, a deflated
 * 40-megapixel image of 78 KB. Each accepted the way a photo upload accepts it, the median of five
 * runs after one to warm up.
 */
export async function dicomBench(): Promise<void> {
  const uploads = new UploadAcceptance();
  const files = [
    {
      label: '9 MB panoramic X-ray (3000 × 1500, 12 bits)',
      link: dicomDataUrl(
        makeDicom({
          width: 3000,
          height: 1500,
          values: detectorValues(3000 * 1500),
          bitsStored: 12,
        }),
      ),
    },
    {
      label: 'deflated 40-megapixel image (78 KB)',
      link: dicomDataUrl(
        makeDeflatedDicom({
          width: 6400,
          height: 6250,
          values: [],
          pixelData: new Uint8Array(6400 * 6250 * 2),
        }),
      ),
    },
  ];
  try {
    for (const file of files) {
      const refusals: string[] = [];
      const accept = () =>
        uploads.acceptPhotoOrDicom(file.link).catch((error: unknown) => {
          refusals.push(error instanceof Error ? error.message : String(error));
        });
      await accept();
      refusals.length = 0;
      const measured = [];
      for (let run = 0; run < runs; run += 1) measured.push(await longestBlock(accept));
      const block = median(measured.map((m) => m.blockMs));
      const total = median(measured.map((m) => m.totalMs));
      console.log(
        `${file.label}: event loop held at most ${block.toFixed(0)} ms at a stretch, answered in ${total.toFixed(0)} ms (medians of ${String(runs)})${refusals.length === 0 ? '' : `; ${String(refusals.length)} refused: ${refusals.join(' | ')}`}`,
      );
    }
  } finally {
    await uploads.close();
  }
}
