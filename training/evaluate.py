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

from common import CLASS_NAMES, DEFAULT_DATASET, load_split
from data import XrayDataset, collate
from model import Detector, anchor_points, decode, flatten

IOU_THRESHOLDS = np.linspace(0.5, 0.95, 10)
RECALL_POINTS = np.linspace(0.0, 1.0, 101)


@torch.no_grad()
def predict(
    model: Detector, dataset: XrayDataset, conf: float = 0.001, iou: float = 0.6, max_det: int = 300, batch_size: int = 16
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


def class_ap(detections: list[np.ndarray], truths: list[np.ndarray], cls: int) -> tuple[np.ndarray, int]:
    """AP of one class at each IoU threshold, and how many labelled boxes it has."""
    scored = []  # (score, image, box)
    for image, rows in enumerate(detections):
        for row in rows[rows[:, 0] == cls]:
            scored.append((row[1], image, row[2:6]))
    scored.sort(key=lambda item: -item[0])
    gt_boxes = [truth[truth[:, 0] == cls, 1:5] for truth in truths]
    total = sum(len(boxes) for boxes in gt_boxes)
    aps = np.zeros(len(IOU_THRESHOLDS))
    if total == 0:
        return aps, 0
    for t, threshold in enumerate(IOU_THRESHOLDS):
        taken = [np.zeros(len(boxes), dtype=bool) for boxes in gt_boxes]
        hits = np.zeros(len(scored))
        for k, (_, image, box) in enumerate(scored):
            if len(gt_boxes[image]) == 0:
                continue
            ious = iou_matrix(box[None], gt_boxes[image])[0]
            ious[taken[image]] = -1.0
            best = int(ious.argmax())
            if ious[best] >= threshold:
                taken[image][best] = True
                hits[k] = 1.0
        true_positives = np.cumsum(hits)
        recall = true_positives / total
        precision = true_positives / np.arange(1, len(scored) + 1)
        aps[t] = average_precision(recall, precision) if len(scored) else 0.0
    return aps, total


def evaluate(model: Detector, dataset: XrayDataset) -> dict[str, dict[str, float]]:
    """Per-class and mean AP50 / AP50-95 of a model on a data set (no augmentation)."""
    detections = predict(model, dataset)
    metrics: dict[str, dict[str, float]] = {}
    for cls, name in enumerate(CLASS_NAMES):
        aps, count = class_ap(detections, dataset.boxes, cls)
        metrics[name] = {'ap50': float(aps[0]), 'ap50_95': float(aps.mean()), 'boxes': count}
    present = [m for m in metrics.values() if m['boxes']]
    metrics['mean'] = {
        'ap50': float(np.mean([m['ap50'] for m in present])),
        'ap50_95': float(np.mean([m['ap50_95'] for m in present])),
        'boxes': sum(m['boxes'] for m in present),
    }
    return metrics


def table(metrics: dict[str, dict[str, float]]) -> str:
    """Metrics as a fixed-width text table."""
    lines = [f'{"class":<16}{"boxes":>7}{"AP50":>8}{"AP50-95":>9}']
    for name, row in metrics.items():
        lines.append(f'{name:<16}{int(row["boxes"]):>7}{row["ap50"]:>8.3f}{row["ap50_95"]:>9.3f}')
    return '\n'.join(lines)


def load_model(weights: Path) -> tuple[Detector, dict]:
    """The EMA weights of a training checkpoint, ready for inference."""
    checkpoint = torch.load(weights, map_location='cpu')
    config = checkpoint['config']
    model = Detector(len(CLASS_NAMES), tuple(config['width']), config['depth'])
    model.load_state_dict(checkpoint['ema'])
    model.eval()
    return model, checkpoint


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--weights', type=Path, required=True, help='checkpoint (last.pt or best.pt)')
    parser.add_argument('--split', choices=('train', 'val', 'test'), default='test')
    parser.add_argument('--dataset', type=Path, default=DEFAULT_DATASET)
    parser.add_argument('--out', type=Path, help='also write the metrics to this JSON file')
    args = parser.parse_args()
    torch.set_num_threads(2)
    model, checkpoint = load_model(args.weights)
    dataset = XrayDataset(args.dataset, load_split()[args.split], checkpoint['config']['imgsz'], augment=False)
    metrics = evaluate(model, dataset)
    print(f'{args.split} split, {len(dataset)} images, epoch {checkpoint["epoch"]}')
    print(table(metrics))
    if args.out:
        args.out.write_text(json.dumps(metrics, indent=2) + '\n')


if __name__ == '__main__':
    main()
