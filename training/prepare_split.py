"""Write the committed train/val/test split of a data set, so that nothing held out leaks.

X-rays (`--kind xray`, training/split.json): Roboflow's export spreads stretched, rotated and
cropped copies of one X-ray over its own train/valid/test folders, which would leak test pictures
into training. All three folders are pooled, images grouped by the `NNNN` prefix of their names,
and whole groups assigned to train/val/test (80/10/10 of the source ids, seeded).

Photos (`--kind photo`, training/split-photos.json): no copies, but Roboflow's split puts 5 of
its 38 test images with a cavity. All folders are pooled and split by file, 70/15/15, stratified
by whether an image holds a cavity (seeded).
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path

from common import EXPORTED_FOLDERS, KINDS, SPLITS, Kind, source_id


def exported_images(dataset: Path) -> list[str]:
    """Every image of Roboflow's three folders, relative to the dataset root."""
    root = dataset / 'data' if (dataset / 'data').is_dir() else dataset
    return [
        image.relative_to(dataset).as_posix()
        for folder in EXPORTED_FOLDERS
        for image in sorted((root / folder / 'images').glob('*.jpg'))
    ]


def assign(groups: list[list[str]], seed: int, fractions: tuple[float, float, float]) -> dict[str, list[str]]:
    """Shuffles the groups and gives the first fractions of them to train, then val, the rest to test."""
    groups = list(groups)
    random.Random(seed).shuffle(groups)
    n_train = round(len(groups) * fractions[0])
    n_val = round(len(groups) * fractions[1])
    bounds = {'train': groups[:n_train], 'val': groups[n_train : n_train + n_val], 'test': groups[n_train + n_val :]}
    return {name: [path for group in bounds[name] for path in group] for name in SPLITS}


def split_by_source(images: list[str], seed: int, fractions: tuple[float, float, float]) -> dict[str, list[str]]:
    """Image paths per split, the copies of one source picture kept together."""
    groups: dict[str, list[str]] = defaultdict(list)
    for rel in images:
        groups[source_id(Path(rel).name)].append(rel)
    split = assign([groups[sid] for sid in sorted(groups)], seed, fractions)
    return {name: sorted(paths) for name, paths in split.items()}


def split_stratified(
    images: list[str], positive: set[str], seed: int, fractions: tuple[float, float, float]
) -> dict[str, list[str]]:
    """Image paths per split by file, each split with its share of the positive images."""
    parts = [
        assign([[rel] for rel in images if (rel in positive) == wanted], seed, fractions) for wanted in (True, False)
    ]
    return {name: sorted(parts[0][name] + parts[1][name]) for name in SPLITS}


def image_boxes(kind: Kind, dataset: Path, rel: str) -> list[tuple[int, float, float, float, float]]:
    """An image's labelled boxes, normalised (DOTA labels are in pixels, so the size is read)."""
    # Imported here: the split functions above, which `npm test` checks, need no Pillow.
    from PIL import Image

    with Image.open(dataset / rel) as image:
        width, height = image.size
    return kind.boxes(dataset, rel, width, height)


def describe(kind: Kind, dataset: Path, split: dict[str, list[str]]) -> str:
    """A table of image and box counts per class per split."""
    header = f'{"split":<6}{"images":>8}' + ''.join(f'{n:>18}' for n in kind.class_names)
    rows = [header]
    for name in SPLITS:
        counts = [0] * len(kind.class_names)
        images_with = [0] * len(kind.class_names)
        for rel in split[name]:
            seen = set()
            for cls, *_ in image_boxes(kind, dataset, rel):
                counts[cls] += 1
                seen.add(cls)
            for cls in seen:
                images_with[cls] += 1
        cells = ''.join(f'{f"{c} ({i} img)":>18}' for c, i in zip(counts, images_with))
        rows.append(f'{name:<6}{len(split[name]):>8}{cells}')
    return '\n'.join(rows)


def prepare(kind: Kind, dataset: Path | None = None, out: Path | None = None, seed: int = 7) -> dict[str, list[str]]:
    """Write the split file of a kind and print its statistics."""
    dataset = dataset or kind.dataset
    out = out or kind.split_file
    images = exported_images(dataset)
    if kind.name == 'xray':
        split = split_by_source(images, seed, (0.8, 0.1, 0.1))
    else:
        cavity = kind.class_names.index('Cavity')
        positive = {rel for rel in images if any(box[0] == cavity for box in image_boxes(kind, dataset, rel))}
        split = split_stratified(images, positive, seed, (0.7, 0.15, 0.15))
    document = {'dataset': dataset.name, 'seed': seed, 'classes': list(kind.class_names), **split}
    out.write_text(json.dumps(document, indent=1) + '\n')
    print(f'wrote {out}')
    print('boxes per class (images containing the class):')
    print(describe(kind, dataset, split))
    return split


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--kind', choices=sorted(KINDS), default='xray')
    parser.add_argument('--dataset', type=Path, help='dataset root (default: the kind\'s folder under ../shared/datasets)')
    parser.add_argument('--out', type=Path, help='split file to write (default: the kind\'s committed split)')
    parser.add_argument('--seed', type=int, default=7, help='shuffle seed')
    args = parser.parse_args()
    prepare(KINDS[args.kind], args.dataset, args.out, args.seed)


if __name__ == '__main__':
    main()
