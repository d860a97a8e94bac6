/** A box on an image, in the image's pixels. */
export interface PlacedBox {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
}

const across = ['left', 'centre', 'right'] as const;
const down = ['top', 'middle', 'bottom'] as const;

/** Which third of a side a coordinate's centre falls in: 0, 1 or 2. */
const third = (centre: number, side: number) =>
  Math.min(2, Math.max(0, Math.floor((3 * centre) / side)));

/**
 * Where a box lies on its image, in words a patient reads without the image's size: the ninth of
 * the image its centre is in ('top left', 'bottom centre', 'the centre'), as seen on the image, so
 * a panoramic X-ray's left is the patient's right. The archive's index says this instead of
 * pixel corners (docs/product/accounts.md).
 */
export function boxPlace(box: PlacedBox, width: number, height: number): string {
  const column = third((box.xmin + box.xmax) / 2, width);
  const row = third((box.ymin + box.ymax) / 2, height);
  if (column === 1 && row === 1) return 'the centre';
  return `the ${down[row] ?? 'middle'} ${across[column] ?? 'centre'}`;
}
