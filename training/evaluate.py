"""COCO-style evaluation: per-class AP50 and AP50-95 with 101-point interpolation.

Run alone to evaluate a checkpoint: `/usr/bin/python3 training/evaluate.py --weights
training/runs/<name>/best.pt --split test`.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import torch
from torchvision.ops import batched_nms

from common import KINDS, Kind, load_split
from data import DetectionDataset, collate
from model import Detector, anchor_points, decode, flatten

IOU_THRESHOLDS = np.linspace(0.5, 0.95, 10)
RECALL_POINTS = np.linspace(0.0, 1.0, 101)


@torch.no_grad()
def predict(
    model: Detector, dataset: DetectionDataset, conf: float = 0.001, iou: float = 0.6, max_det: int = 300, batch_size: int = 16
) -> list[np.ndarray]:
    """Detections per image as rows (cls, score, x1, y1, x2, y2) in input pixels, after class-aware NMS."""
    model.eval()
    points, strides = anchor_points(dataset.size)
    results = []
    for start in range(0, len(dataset), batch_size):
        images, _, _ = collate([dataset[i] for i in range(start, min(start + batch_size, len(dataset)))])
        ltrb, logits = flatten(model(images))
        boxes = decode(ltrb, points, strides)
        scores = logits.sigmoid()
        for image_boxes, image_scores in zip(boxes, scores):
            cell, cls = (image_scores > conf).nonzero(as_tuple=True)
            kept_boxes, kept_scores = image_boxes[cell], image_scores[cell, cls]
            keep = batched_nms(kept_boxes, kept_scores, cls, iou)[:max_det]
            rows = torch.cat((cls[keep, None].float(), kept_scores[keep, None], kept_boxes[keep]), 1)
            results.append(rows.numpy())
    return results


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box in a [n, 4] with every box in b [m, 4]."""
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.clip(rb - lt, 0, None).prod(2)
    area_a = (a[:, 2:] - a[:, :2]).prod(1)
    area_b = (b[:, 2:] - b[:, :2]).prod(1)
    return inter / (area_a[:, None] + area_b[None, :] - inter + 1e-12)


def average_precision(recall: np.ndarray, precision: np.ndarray) -> float:
    """Area under the precision envelope sampled at 101 recall points (COCO)."""
    envelope = np.maximum.accumulate(precision[::-1])[::-1]
    index = np.searchsorted(recall, RECALL_POINTS, side='left')
    sampled = np.array([envelope[i] if i < len(envelope) else 0.0 for i in index])
    return float(sampled.mean())


Matches = tuple[np.ndarray, np.ndarray, int]


def image_matches(rows: np.ndarray, truth: np.ndarray, cls: int) -> Matches:
    """One image's detections of a class: their scores, whether each matched a labelled box at
    each IoU threshold ([thresholds, detections], greedy by score as COCO does), and how many
    labelled boxes of the class the image has. Matching never crosses images, so an image's
    matches serve every AP over any set of images (the bootstrap resamples them)."""
    found = rows[rows[:, 0] == cls]
    found = found[np.argsort(-found[:, 1], kind='stable')]
    labelled = truth[truth[:, 0] == cls, 1:5]
    hits = np.zeros((len(IOU_THRESHOLDS), len(found)))
    if len(labelled) and len(found):
        ious = iou_matrix(found[:, 2:6], labelled)
        for t, threshold in enumerate(IOU_THRESHOLDS):
            taken = np.zeros(len(labelled), dtype=bool)
            for k in range(len(found)):
                candidates = np.where(taken, -1.0, ious[k])
                best = int(candidates.argmax())
                if candidates[best] >= threshold:
                    taken[best] = True
                    hits[t, k] = 1.0
    return found[:, 1], hits, len(labelled)


def ap_of(matches: list[Matches]) -> np.ndarray:
    """AP at each IoU threshold over the images whose matches are given."""
    total = sum(count for _, _, count in matches)
    aps = np.zeros(len(IOU_THRESHOLDS))
    scores = np.concatenate([scores for scores, _, _ in matches])
    if total == 0 or len(scores) == 0:
        return aps
    order = np.argsort(-scores, kind='stable')
    true_positives = np.cumsum(np.concatenate([hits for _, hits, _ in matches], 1)[:, order], 1)
    precision = true_positives / np.arange(1, len(scores) + 1)
    for t in range(len(IOU_THRESHOLDS)):
        aps[t] = average_precision(true_positives[t] / total, precision[t])
    return aps


def class_ap(detections: list[np.ndarray], truths: list[np.ndarray], cls: int) -> tuple[np.ndarray, int]:
    """AP of one class at each IoU threshold, and how many labelled boxes it has."""
    matches = [image_matches(rows, truth, cls) for rows, truth in zip(detections, truths)]
    return ap_of(matches), sum(count for _, _, count in matches)


def bootstrap_interval(
    detections: list[np.ndarray], truths: list[np.ndarray], cls: int, samples: int, seed: int = 0
) -> dict[str, list[float]]:
    """95 % percentile intervals of a class's AP50 and AP50-95 over images resampled with replacement."""
    matches = [image_matches(rows, truth, cls) for rows, truth in zip(detections, truths)]
    rng = np.random.default_rng(seed)
    draws = np.array([ap_of([matches[i] for i in rng.integers(0, len(matches), len(matches))]) for _ in range(samples)])
    low_high = lambda values: [round(float(v), 4) for v in np.percentile(values, (2.5, 97.5))]
    return {'ap50_ci95': low_high(draws[:, 0]), 'ap50_95_ci95': low_high(draws.mean(1))}


def evaluate(model: Detector, dataset: DetectionDataset, bootstrap: int = 0) -> dict[str, dict]:
    """Per-class and mean AP50 / AP50-95 of a model on a data set (no augmentation); with
    `bootstrap` samples, each class also gets its 95 % interval."""
    detections = predict(model, dataset)
    metrics: dict[str, dict] = {}
    for cls, name in enumerate(dataset.kind.class_names):
        aps, count = class_ap(detections, dataset.boxes, cls)
        metrics[name] = {'ap50': float(aps[0]), 'ap50_95': float(aps.mean()), 'boxes': count}
        if bootstrap and count:
            metrics[name].update(bootstrap_interval(detections, dataset.boxes, cls, bootstrap))
    present = [m for m in metrics.values() if m['boxes']]
    metrics['mean'] = {
        'ap50': float(np.mean([m['ap50'] for m in present])),
        'ap50_95': float(np.mean([m['ap50_95'] for m in present])),
        'boxes': sum(m['boxes'] for m in present),
    }
    return metrics


def table(metrics: dict[str, dict]) -> str:
    """Metrics as a fixed-width text table (with 95 % intervals when bootstrapped)."""
    interval = lambda row, key: f'{row[key][0]:.3f}-{row[key][1]:.3f}' if key in row else ''
    lines = [f'{"class":<16}{"boxes":>7}{"AP50":>8}{"95 % CI":>14}{"AP50-95":>9}{"95 % CI":>14}']
    for name, row in metrics.items():
        lines.append(
            f'{name:<16}{int(row["boxes"]):>7}{row["ap50"]:>8.3f}{interval(row, "ap50_ci95"):>14}'
            f'{row["ap50_95"]:>9.3f}{interval(row, "ap50_95_ci95"):>14}'
        )
    return '\n'.join(lines)


def checkpoint_kind(config: dict) -> Kind:
    """The data set a checkpoint was trained on; runs from before photos were X-ray runs."""
    return KINDS[config.get('kind', 'xray')]


def build_model(config: dict) -> Detector:
    """An untrained detector shaped as a checkpoint's configuration says."""
    kind = checkpoint_kind(config)
    return Detector(len(kind.class_names), tuple(config['width']), config['depth'], 3 if kind.colour else 1)


def load_model(weights: Path) -> tuple[Detector, dict]:
    """The EMA weights of a training checkpoint, ready for inference."""
    checkpoint = torch.load(weights, map_location='cpu')
    model = build_model(checkpoint['config'])
    model.load_state_dict(checkpoint['ema'])
    model.eval()
    return model, checkpoint


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--weights', type=Path, required=True, help='checkpoint (last.pt or best.pt)')
    parser.add_argument('--split', choices=('train', 'val', 'test'), default='test')
    parser.add_argument('--dataset', type=Path, help='dataset root (default: the checkpoint kind\'s folder)')
    parser.add_argument('--out', type=Path, help='also write the metrics to this JSON file')
    parser.add_argument('--bootstrap', type=int, default=1000, help='resamples for the 95 % intervals (0: none)')
    args = parser.parse_args()
    torch.set_num_threads(2)
    model, checkpoint = load_model(args.weights)
    kind = checkpoint_kind(checkpoint['config'])
    images = load_split(kind.split_file)[args.split]
    dataset = DetectionDataset(kind, args.dataset or kind.dataset, images, checkpoint['config']['imgsz'], augment=False)
    metrics = evaluate(model, dataset, args.bootstrap)
    print(f'{args.split} split, {len(dataset)} images, epoch {checkpoint["epoch"]}')
    print(table(metrics))
    if args.out:
        args.out.write_text(json.dumps(metrics, indent=2) + '\n')


if __name__ == '__main__':
    main()
