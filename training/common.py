"""Paths, the two data sets (kinds), class names and label parsing shared by the training scripts."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

TRAINING_DIR = Path(__file__).resolve().parent
REPO_DIR = TRAINING_DIR.parent
DATASETS_DIR = REPO_DIR.parent / 'shared' / 'datasets'
RUNS_DIR = TRAINING_DIR / 'runs'
CACHE_DIR = TRAINING_DIR / '.cache'
MODELS_DIR = REPO_DIR / 'models'

EXPORTED_FOLDERS = ('train', 'valid', 'test')
SPLITS = ('train', 'val', 'test')

# Roboflow names copies of one source picture `NNNN_jpg.rf.<hash>.jpg`.
SOURCE_ID = re.compile(r'^(\d+)_jpg\.rf\.[0-9a-f]+\.jpg$')

Box = tuple[int, float, float, float, float]


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


def read_boxes(path: Path) -> list[Box]:
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
        boxes.extend(clipped(cls, x1, y1, x2, y2))
    return boxes


def clipped(cls: int, x1: float, y1: float, x2: float, y2: float) -> list[Box]:
    """The box clipped to the image, or nothing when no area is left."""
    x1, y1 = max(0.0, x1), max(0.0, y1)
    x2, y2 = min(1.0, x2), min(1.0, y2)
    return [(cls, x1, y1, x2, y2)] if x2 > x1 and y2 > y1 else []


def dota_label_path(dataset: Path, image_rel: str) -> Path:
    """DOTA label file (`labelTxt/`) of an image given relative to the dataset root."""
    image = dataset / image_rel
    return image.parent.parent / 'labelTxt' / (image.stem + '.txt')


def read_dota_boxes(path: Path, class_names: tuple[str, ...], width: int, height: int) -> list[Box]:
    """Boxes of one DOTA label file (`x1 y1 ... x4 y4 class difficulty`, in pixels) as
    (class, x1, y1, x2, y2) normalised to 0..1: the enclosing box of the four corners."""
    names = [name.lower() for name in class_names]
    boxes = []
    for line in path.read_text().splitlines():
        fields = line.split()
        if not fields:
            continue
        if len(fields) < 9:
            raise ValueError(f'{path}: malformed row {line!r}')
        corners = [float(v) for v in fields[:8]]
        xs, ys = corners[0::2], corners[1::2]
        cls = names.index(fields[8].lower())
        boxes.extend(clipped(cls, min(xs) / width, min(ys) / height, max(xs) / width, max(ys) / height))
    return boxes


@dataclass(frozen=True)
class Kind:
    """One data set the detector is trained on, and what its model sees."""

    name: str
    dataset: Path
    split_file: Path
    class_names: tuple[str, ...]
    # A colour model reads RGB; a grey one reads luma, which its export folds into the first layer.
    colour: bool
    # (dataset root, image path relative to it, image width, height) -> normalised boxes.
    boxes: Callable[[Path, str, int, int], list[Box]]
    # The exported model's `description` and `license` metadata.
    description: str
    licence: str


XRAY_CLASSES = ('Cavity', 'Fillings', 'Impacted Tooth', 'Implant')
PHOTO_CLASSES = ('Cavity', 'Normal')

KINDS = {
    'xray': Kind(
        name='xray',
        dataset=DATASETS_DIR / 'dental-xray-4class',
        split_file=TRAINING_DIR / 'split.json',
        class_names=XRAY_CLASSES,
        colour=False,
        boxes=lambda dataset, rel, width, height: read_boxes(label_path(dataset, rel)),
        description='Dental Companion panoramic X-ray detector (Cavity, Fillings, Impacted Tooth, Implant)',
        licence='Model: Dental Companion. Training data: CC BY 4.0, https://universe.roboflow.com/dental-uispo/-bhjcu',
    ),
    'photo': Kind(
        name='photo',
        dataset=DATASETS_DIR / 'dental-cavity-photos',
        split_file=TRAINING_DIR / 'split-photos.json',
        class_names=PHOTO_CLASSES,
        colour=True,
        boxes=lambda dataset, rel, width, height: read_dota_boxes(
            dota_label_path(dataset, rel), PHOTO_CLASSES, width, height
        ),
        description='Dental Companion intra-oral photo detector (Cavity, Normal)',
        licence='Model: Dental Companion. Training data: CC BY 4.0, provided by CAV-TEE Research Team',
    ),
}


def load_split(path: Path) -> dict[str, list[str]]:
    """A committed split: image paths relative to the dataset root, per split."""
    split = json.loads(path.read_text())
    return {name: split[name] for name in SPLITS}
