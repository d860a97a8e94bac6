"""Re-split the dataset by source picture so that no source is in two splits.

Roboflow's export spreads stretched, rotated and cropped copies of one X-ray over its own
train/valid/test folders, which would leak test pictures into training. This script pools all
three folders, groups images by the `NNNN` prefix of their names and assigns whole groups to
train/val/test (80/10/10 of the source ids, seeded), then writes training/split.json.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import defaultdict
from pathlib import Path

from common import (
    CLASS_NAMES,
    DEFAULT_DATASET,
    EXPORTED_FOLDERS,
    SPLIT_FILE,
    SPLITS,
    label_path,
    read_boxes,
    source_id,
)


def split_by_source(
    dataset: Path, seed: int, fractions: tuple[float, float, float]
) -> dict[str, list[str]]:
    """Image paths (relative to the dataset root) per split, grouped by source id."""
    groups: dict[str, list[str]] = defaultdict(list)
    for folder in EXPORTED_FOLDERS:
        for image in sorted((dataset / 'data' / folder / 'images').glob('*.jpg')):
            groups[source_id(image.name)].append(image.relative_to(dataset).as_posix())
    ids = sorted(groups)
    random.Random(seed).shuffle(ids)
    n_train = round(len(ids) * fractions[0])
    n_val = round(len(ids) * fractions[1])
    bounds = {'train': ids[:n_train], 'val': ids[n_train : n_train + n_val], 'test': ids[n_train + n_val :]}
    return {name: sorted(path for sid in bounds[name] for path in groups[sid]) for name in SPLITS}


def describe(dataset: Path, split: dict[str, list[str]]) -> str:
    """A table of image, source and box counts per class per split."""
    header = f'{"split":<6}{"images":>8}{"sources":>9}' + ''.join(f'{n:>16}' for n in CLASS_NAMES)
    rows = [header]
    for name in SPLITS:
        counts = [0] * len(CLASS_NAMES)
        images_with = [0] * len(CLASS_NAMES)
        for rel in split[name]:
            seen = set()
            for cls, *_ in read_boxes(label_path(dataset, rel)):
                counts[cls] += 1
                seen.add(cls)
            for cls in seen:
                images_with[cls] += 1
        sources = len({source_id(Path(rel).name) for rel in split[name]})
        cells = ''.join(f'{f"{c} ({i} img)":>16}' for c, i in zip(counts, images_with))
        rows.append(f'{name:<6}{len(split[name]):>8}{sources:>9}{cells}')
    return '\n'.join(rows)


def prepare(dataset: Path, out: Path = SPLIT_FILE, seed: int = 7) -> dict[str, list[str]]:
    """Write the split file and print its statistics."""
    split = split_by_source(dataset, seed, (0.8, 0.1, 0.1))
    sources = [{source_id(Path(rel).name) for rel in split[name]} for name in SPLITS]
    if sources[0] & sources[1] or sources[0] & sources[2] or sources[1] & sources[2]:
        raise AssertionError('a source id landed in two splits')
    document = {'dataset': 'dental-xray-4class', 'seed': seed, 'classes': list(CLASS_NAMES), **split}
    out.write_text(json.dumps(document, indent=1) + '\n')
    print(f'wrote {out}')
    print('boxes per class (images containing the class):')
    print(describe(dataset, split))
    return split


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--dataset', type=Path, default=DEFAULT_DATASET, help='dataset root (has data.yaml)')
    parser.add_argument('--out', type=Path, default=SPLIT_FILE, help='split file to write')
    parser.add_argument('--seed', type=int, default=7, help='shuffle seed for the source ids')
    args = parser.parse_args()
    prepare(args.dataset, args.out, args.seed)


if __name__ == '__main__':
    main()
