"""Images and boxes in memory, augmentation fit for X-rays and photos, batching and class-balanced sampling."""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import torch
from PIL import Image

from common import Kind

PAD_GREY = 114  # the letterbox padding the TypeScript pipeline uses
# PIL's 'L' conversion (ITU-R 601 luma).
LUMA = (0.299, 0.587, 0.114)


def letterbox(path: Path, size: int, colour: bool) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Image resized into a size x size square with even grey padding, RGB or grey.

    Returns the pixels, the scale and the (x, y) padding, so boxes map the same way. The grey
    conversion is PIL's ITU-R 601 luma, which an exported grey model repeats on its RGB input.
    """
    mode = 'RGB' if colour else 'L'
    image = Image.open(path).convert(mode)
    scale = min(size / image.width, size / image.height)
    width, height = round(image.width * scale), round(image.height * scale)
    canvas = Image.new(mode, (size, size), (PAD_GREY,) * 3 if colour else PAD_GREY)
    pad = ((size - width) / 2, (size - height) / 2)
    canvas.paste(image.resize((width, height), Image.BILINEAR), (int(pad[0]), int(pad[1])))
    return np.asarray(canvas, dtype=np.uint8), scale, (float(int(pad[0])), float(int(pad[1])))


class DetectionDataset(torch.utils.data.Dataset):
    """All images of one split decoded once at the training size; boxes in pixels (cls, x1, y1, x2, y2)."""

    def __init__(self, kind: Kind, dataset: Path, images: list[str], size: int, augment: bool) -> None:
        self.kind = kind
        self.size = size
        self.augment = augment
        self.names = images
        shape = (len(images), size, size, 3) if kind.colour else (len(images), size, size)
        self.pixels = np.empty(shape, dtype=np.uint8)
        self.boxes: list[np.ndarray] = []
        for index, rel in enumerate(images):
            image_path = dataset / rel
            pixels, scale, (pad_x, pad_y) = letterbox(image_path, size, kind.colour)
            self.pixels[index] = pixels
            with Image.open(image_path) as original:
                width, height = original.size
            rows = [
                (cls, x1 * width * scale + pad_x, y1 * height * scale + pad_y, x2 * width * scale + pad_x, y2 * height * scale + pad_y)
                for cls, x1, y1, x2, y2 in kind.boxes(dataset, rel, width, height)
            ]
            self.boxes.append(np.array(rows, dtype=np.float32).reshape(-1, 5))

    def __len__(self) -> int:
        return len(self.names)

    def __getitem__(self, index: int) -> tuple[torch.Tensor, torch.Tensor]:
        pixels = self.pixels[index]
        boxes = self.boxes[index].copy()
        if self.augment:
            pixels, boxes = augment_geometry(pixels, boxes)
        image = torch.from_numpy(np.array(pixels)).float().div_(255.0)
        image = image.permute(2, 0, 1) if self.kind.colour else image.unsqueeze(0)
        if self.augment:
            image = augment_intensity(augment_colour(image) if self.kind.colour else image)
        return image, torch.from_numpy(boxes)


def augment_geometry(pixels: np.ndarray, boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Random scale (0.75-1.25) and shift (up to 10 %), then flips.

    Horizontal flips are ordinary for panoramics and for photos (mirror shots); the X-ray set
    holds upside-down copies and photos show either jaw, so vertical flips too. No rotation:
    axis-aligned boxes would no longer fit the teeth.
    """
    size = pixels.shape[0]
    scale = random.uniform(0.75, 1.25)
    shift_x, shift_y = (random.uniform(-0.1, 0.1) * size for _ in range(2))
    centre = size / 2
    # PIL maps each output pixel back to an input pixel: input = (output - centre - shift) / scale + centre.
    inverse = (1 / scale, 0.0, centre - (centre + shift_x) / scale, 0.0, 1 / scale, centre - (centre + shift_y) / scale)
    fill = (PAD_GREY,) * 3 if pixels.ndim == 3 else PAD_GREY
    image = Image.fromarray(pixels).transform((size, size), Image.AFFINE, inverse, Image.BILINEAR, fillcolor=fill)
    out = np.asarray(image)
    if len(boxes):
        xy = boxes[:, 1:]
        area_before = (xy[:, 2] - xy[:, 0]) * (xy[:, 3] - xy[:, 1]) * scale * scale
        xy[:, [0, 2]] = (xy[:, [0, 2]] - centre) * scale + centre + shift_x
        xy[:, [1, 3]] = (xy[:, [1, 3]] - centre) * scale + centre + shift_y
        np.clip(xy, 0, size, out=xy)
        area_after = (xy[:, 2] - xy[:, 0]) * (xy[:, 3] - xy[:, 1])
        # A tooth cut mostly off the edge is no longer recognisable: drop it.
        keep = (area_after > 0.4 * area_before) & (xy[:, 2] - xy[:, 0] > 2) & (xy[:, 3] - xy[:, 1] > 2)
        boxes = boxes[keep]
    if random.random() < 0.5:
        out = out[:, ::-1]
        boxes[:, [1, 3]] = size - boxes[:, [3, 1]]
    if random.random() < 0.5:
        out = out[::-1, :]
        boxes[:, [2, 4]] = size - boxes[:, [4, 2]]
    return out, boxes


def augment_colour(image: torch.Tensor) -> torch.Tensor:
    """What phone cameras vary in: white balance (a gain per channel) and saturation."""
    gains = torch.empty(3, 1, 1).uniform_(0.9, 1.1)
    image = image * gains
    grey = (image * torch.tensor(LUMA).view(3, 1, 1)).sum(0, keepdim=True)
    saturation = random.uniform(0.6, 1.4)
    return (grey + (image - grey) * saturation).clamp_(0.0, 1.0)


def augment_intensity(image: torch.Tensor) -> torch.Tensor:
    """Exposure changes any picture can have: contrast, brightness and gamma."""
    gamma = math.exp(random.uniform(-0.25, 0.25))
    image = image.pow(gamma)
    mean = image.mean()
    contrast = random.uniform(0.75, 1.25)
    brightness = random.uniform(-0.1, 0.1)
    return ((image - mean) * contrast + mean + brightness).clamp_(0.0, 1.0)


def collate(batch: list[tuple[torch.Tensor, torch.Tensor]]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Images [B, C, S, S], boxes padded to [B, M, 5] and their mask [B, M]."""
    images = torch.stack([image for image, _ in batch])
    most = max(1, max(len(boxes) for _, boxes in batch))
    targets = torch.zeros((len(batch), most, 5))
    mask = torch.zeros((len(batch), most), dtype=torch.bool)
    for index, (_, boxes) in enumerate(batch):
        targets[index, : len(boxes)] = boxes
        mask[index, : len(boxes)] = True
    return images, targets, mask


def repeat_factors(dataset: DetectionDataset, threshold: float) -> list[float]:
    """LVIS repeat-factor sampling: an image is repeated by its rarest class's factor.

    A class present in fraction f of the images gets max(1, sqrt(threshold / f)), so Cavity and
    Impacted Tooth (in about a fifth of the X-rays) are seen about 1.5 times per epoch.
    """
    present = [set(int(c) for c in boxes[:, 0]) for boxes in dataset.boxes]
    factors = []
    for cls in range(len(dataset.kind.class_names)):
        fraction = sum(cls in classes for classes in present) / len(present)
        factors.append(max(1.0, math.sqrt(threshold / fraction)) if fraction else 1.0)
    return [max([factors[c] for c in classes], default=1.0) for classes in present]


def epoch_indices(factors: list[float], rng: random.Random) -> list[int]:
    """One epoch's image order: each image repeated by its factor, stochastically rounded."""
    indices = []
    for index, factor in enumerate(factors):
        copies = int(factor) + (1 if rng.random() < factor - int(factor) else 0)
        indices.extend([index] * copies)
    rng.shuffle(indices)
    return indices
