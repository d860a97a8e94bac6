"""Paths, class names and label parsing shared by the training scripts."""

from __future__ import annotations

import json
import re
from pathlib import Path

TRAINING_DIR = Path(__file__).resolve().parent
REPO_DIR = TRAINING_DIR.parent
DEFAULT_DATASET = REPO_DIR.parent / 'shared' / 'datasets' / 'dental-xray-4class'
SPLIT_FILE = TRAINING_DIR / 'split.json'
RUNS_DIR = TRAINING_DIR / 'runs'
CACHE_DIR = TRAINING_DIR / '.cache'
MODELS_DIR = REPO_DIR / 'models'

# Index order is the model's output order; it must match the dataset's data.yaml.
CLASS_NAMES = ('Cavity', 'Fillings', 'Impacted Tooth', 'Implant')
EXPORTED_FOLDERS = ('train', 'valid', 'test')
SPLITS = ('train', 'val', 'test')

# Roboflow names copies of one source picture `NNNN_jpg.rf.<hash>.jpg`.
SOURCE_ID = re.compile(r'^(\d+)_jpg\.rf\.[0-9a-f]+\.jpg$')


def source_id(image_name: str) -> str:
    """The source picture an exported image was derived from."""
    match = SOURCE_ID.match(image_name)
    if match is None:
        raise ValueError(f'unexpected image name {image_name!r}')
    return match.group(1)


def label_path(dataset: Path, image_rel: str) -> Path:
    """YOLO label file of an image given relative to the dataset root."""
    image = dataset / image_rel
    return image.parent.parent / 'labels' / (image.stem + '.txt')


def read_boxes(path: Path) -> list[tuple[int, float, float, float, float]]:
    """Boxes of one YOLO label file as (class, x1, y1, x2, y2) normalised to 0..1.

    Rows are `class cx cy w h`; Roboflow may also export polygons `class x1 y1 x2 y2 ...`,
    which become their enclosing box.
    """
    boxes = []
    for line in path.read_text().splitlines():
        fields = line.split()
        if not fields:
            continue
        cls = int(fields[0])
        values = [float(v) for v in fields[1:]]
        if len(values) == 4:
            cx, cy, w, h = values
            x1, y1, x2, y2 = cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2
        elif len(values) >= 6 and len(values) % 2 == 0:
            xs, ys = values[0::2], values[1::2]
            x1, y1, x2, y2 = min(xs), min(ys), max(xs), max(ys)
        else:
            raise ValueError(f'{path}: malformed row {line!r}')
        x1, y1 = max(0.0, x1), max(0.0, y1)
        x2, y2 = min(1.0, x2), min(1.0, y2)
        if x2 > x1 and y2 > y1:
            boxes.append((cls, x1, y1, x2, y2))
    return boxes


def load_split(path: Path = SPLIT_FILE) -> dict[str, list[str]]:
    """The committed split: image paths relative to the dataset root, per split."""
    split = json.loads(path.read_text())
    return {name: split[name] for name in SPLITS}
