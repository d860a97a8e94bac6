"""Draw the labelled boxes of a few training images to PNG files for a visual check."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from PIL import Image, ImageDraw

from common import CACHE_DIR, KINDS, Kind, load_split

COLOURS = ('red', 'lime', 'yellow', 'magenta')


def boxes_of(kind: Kind, dataset: Path, rel: str) -> list[tuple[int, float, float, float, float]]:
    with Image.open(dataset / rel) as image:
        return kind.boxes(dataset, rel, image.width, image.height)


def draw(kind: Kind, dataset: Path, rel: str, out: Path) -> None:
    """Save one image with its boxes and class initials drawn on it."""
    image = Image.open(dataset / rel).convert('RGB')
    pen = ImageDraw.Draw(image)
    for cls, x1, y1, x2, y2 in boxes_of(kind, dataset, rel):
        box = (x1 * image.width, y1 * image.height, x2 * image.width, y2 * image.height)
        pen.rectangle(box, outline=COLOURS[cls], width=2)
        pen.text((box[0] + 2, box[1] + 2), kind.class_names[cls][0], fill=COLOURS[cls])
    image.save(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--kind', choices=sorted(KINDS), default='xray')
    parser.add_argument('--dataset', type=Path, help='dataset root (default: the kind\'s folder)')
    parser.add_argument('--count', type=int, default=6)
    parser.add_argument('--seed', type=int, default=1)
    args = parser.parse_args()
    kind = KINDS[args.kind]
    dataset = args.dataset or kind.dataset
    train = load_split(kind.split_file)['train']
    classes = {rel: {b[0] for b in boxes_of(kind, dataset, rel)} for rel in train}
    rng = random.Random(args.seed)
    # Part of the sample shows the classes the product reports (Cavity; Impacted Tooth on X-rays).
    reported = [kind.class_names.index(name) for name in ('Cavity', 'Impacted Tooth') if name in kind.class_names]
    picks: list[str] = []
    for cls in reported:
        picks += rng.sample([rel for rel in train if cls in classes[rel] and rel not in picks], args.count // 3)
    picks += rng.sample([rel for rel in train if rel not in picks], args.count - len(picks))
    out_dir = CACHE_DIR / 'samples' / kind.name
    out_dir.mkdir(parents=True, exist_ok=True)
    for index, rel in enumerate(picks):
        out = out_dir / f'sample{index}.png'
        draw(kind, dataset, rel, out)
        print(out, rel, sorted(kind.class_names[c] for c in classes[rel]))


if __name__ == '__main__':
    main()
