"""Draw the labelled boxes of a few training images to PNG files for a visual check."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from PIL import Image, ImageDraw

from common import CACHE_DIR, CLASS_NAMES, DEFAULT_DATASET, label_path, load_split, read_boxes

COLOURS = ('red', 'lime', 'yellow', 'magenta')


def draw(dataset: Path, rel: str, out: Path) -> None:
    """Save one image with its boxes and class initials drawn on it."""
    image = Image.open(dataset / rel).convert('RGB')
    pen = ImageDraw.Draw(image)
    for cls, x1, y1, x2, y2 in read_boxes(label_path(dataset, rel)):
        box = (x1 * image.width, y1 * image.height, x2 * image.width, y2 * image.height)
        pen.rectangle(box, outline=COLOURS[cls], width=2)
        pen.text((box[0] + 2, box[1] + 2), CLASS_NAMES[cls][0], fill=COLOURS[cls])
    image.save(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--dataset', type=Path, default=DEFAULT_DATASET)
    parser.add_argument('--count', type=int, default=6)
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args()
    train = load_split()['train']
    classes = {rel: {b[0] for b in read_boxes(label_path(args.dataset, rel))} for rel in train}
    rng = random.Random(args.seed)
    # Half the sample shows the two classes the product reports, the rest is random.
    impacted = [rel for rel in train if 2 in classes[rel]]
    cavity = [rel for rel in train if 0 in classes[rel]]
    picks = rng.sample(impacted, args.count // 3) + rng.sample(cavity, args.count // 3)
    picks += rng.sample([rel for rel in train if rel not in picks], args.count - len(picks))
    out_dir = CACHE_DIR / 'samples'
    out_dir.mkdir(parents=True, exist_ok=True)
    for index, rel in enumerate(picks):
        out = out_dir / f'sample{index}.png'
        draw(args.dataset, rel, out)
        print(out, rel, sorted(CLASS_NAMES[c] for c in classes[rel]))


if __name__ == '__main__':
    main()
