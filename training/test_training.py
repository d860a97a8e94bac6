"""Tests of the training code that need PyTorch: `cd training && /usr/bin/python3 -m unittest -v test_training`.

The ones that need neither PyTorch nor the data set are in test_common.py, which `npm test` runs.
"""

from __future__ import annotations

import ast
import json
import random
import tempfile
import unittest
from pathlib import Path

import numpy as np
import onnx
import torch

import export_onnx
from common import CLASS_NAMES
from data import augment_geometry, epoch_indices
from evaluate import average_precision, class_ap
from loss import assign
from model import Detector, anchor_points


class AugmentTest(unittest.TestCase):
    def test_boxes_follow_the_pixels(self) -> None:
        # A white rectangle on black: after any augmentation its box must still enclose it.
        pixels = np.zeros((128, 128), dtype=np.uint8)
        pixels[40:80, 50:70] = 255
        boxes = np.array([[1, 50, 40, 70, 80]], dtype=np.float32)
        random.seed(5)
        for _ in range(20):
            out, moved = augment_geometry(pixels, boxes.copy())
            bright = np.argwhere(np.asarray(out) > 200)
            if len(moved) == 0:
                continue
            y1, x1 = bright.min(0)
            y2, x2 = bright.max(0) + 1
            np.testing.assert_allclose(moved[0, 1:], (x1, y1, x2, y2), atol=2.0)

    def test_repeat_factors_round_stochastically(self) -> None:
        counts = np.bincount(epoch_indices([1.0, 1.5, 2.0], random.Random(0)), minlength=3)
        self.assertEqual(counts[0], 1)
        self.assertIn(counts[1], (1, 2))
        self.assertEqual(counts[2], 2)


class MetricTest(unittest.TestCase):
    def test_perfect_detections_score_one(self) -> None:
        truths = [np.array([[0, 10, 10, 20, 40]], dtype=np.float32)]
        detections = [np.array([[0, 0.9, 10, 10, 20, 40]], dtype=np.float32)]
        aps, count = class_ap(detections, truths, 0)
        self.assertEqual(count, 1)
        np.testing.assert_allclose(aps, 1.0)

    def test_false_positive_ranked_first_halves_precision(self) -> None:
        truths = [np.array([[0, 10, 10, 20, 40]], dtype=np.float32)]
        detections = [np.array([[0, 0.9, 60, 60, 70, 90], [0, 0.5, 10, 10, 20, 40]], dtype=np.float32)]
        aps, _ = class_ap(detections, truths, 0)
        np.testing.assert_allclose(aps, 0.5)

    def test_box_shifted_by_half_counts_only_at_low_iou(self) -> None:
        truths = [np.array([[0, 0, 0, 10, 10]], dtype=np.float32)]
        # IoU of [0,0,10,10] and [2,0,12,10] is 80/120 = 0.67: a hit at 0.50..0.65 only.
        detections = [np.array([[0, 0.9, 2, 0, 12, 10]], dtype=np.float32)]
        aps, _ = class_ap(detections, truths, 0)
        np.testing.assert_allclose(aps, [1, 1, 1, 1, 0, 0, 0, 0, 0, 0])

    def test_interpolation_uses_101_recall_points(self) -> None:
        self.assertAlmostEqual(average_precision(np.array([0.5]), np.array([1.0])), 51 / 101)


class AssignerTest(unittest.TestCase):
    def test_only_cells_inside_a_box_become_positives_of_its_class(self) -> None:
        size = 64
        points, _ = anchor_points(size)
        cells = len(points)
        scores = torch.full((1, cells, len(CLASS_NAMES)), 0.5)
        boxes = torch.cat((points - 4, points + 4), 1)[None]
        gt = torch.tensor([[[2, 8, 8, 40, 56]]], dtype=torch.float32)
        target_boxes, target_scores, foreground = assign(scores, boxes, points, gt, torch.ones(1, 1, dtype=torch.bool))
        chosen = points[foreground[0]]
        self.assertTrue(0 < len(chosen) <= 10)
        self.assertTrue(((chosen[:, 0] > 8) & (chosen[:, 0] < 40) & (chosen[:, 1] > 8) & (chosen[:, 1] < 56)).all())
        self.assertTrue((target_scores[0, foreground[0], 2] > 0).all())
        self.assertEqual(float(target_scores[0, :, [0, 1, 3]].sum()), 0.0)
        torch.testing.assert_close(target_boxes[0, foreground[0]], gt[0, :, 1:].expand(len(chosen), 4))


class ExportTest(unittest.TestCase):
    def test_export_writes_the_yolov8_layout_and_names(self) -> None:
        torch.manual_seed(0)
        detector = Detector(len(CLASS_NAMES), (8, 8, 16, 16, 32))
        config = {'imgsz': 64, 'width': [8, 8, 16, 16, 32], 'depth': 1}
        with tempfile.TemporaryDirectory() as folder:
            weights = Path(folder) / 'best.pt'
            torch.save({'epoch': 1, 'config': config, 'ema': detector.eval().state_dict(), 'history': []}, weights)
            out = export_onnx.export(weights, Path(folder) / 'tiny.onnx')
            model = onnx.load(str(out))
            labels = json.loads((Path(folder) / 'labels.json').read_text())
        metadata = {p.key: p.value for p in model.metadata_props}
        self.assertEqual(ast.literal_eval(metadata['names']), dict(enumerate(CLASS_NAMES)))
        self.assertEqual(labels, list(CLASS_NAMES))
        self.assertEqual(metadata['imgsz'], '[64, 64]')
        self.assertEqual([i.name for i in model.graph.input], ['images'])
        dims = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
        self.assertEqual(dims, [1, 3, 64, 64])
        self.assertLessEqual(model.opset_import[0].version, 17)


if __name__ == '__main__':
    unittest.main()
