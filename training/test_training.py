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
from common import KINDS, XRAY_CLASSES
from data import augment_colour, augment_geometry, epoch_indices
from evaluate import average_precision, bootstrap_interval, build_model, class_ap
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

    def test_colour_boxes_follow_the_pixels_too(self) -> None:
        pixels = np.zeros((96, 96, 3), dtype=np.uint8)
        pixels[20:50, 30:60] = (200, 60, 60)
        boxes = np.array([[0, 30, 20, 60, 50]], dtype=np.float32)
        random.seed(3)
        for _ in range(10):
            out, moved = augment_geometry(pixels, boxes.copy())
            self.assertEqual(np.asarray(out).shape, (96, 96, 3))
            if len(moved) == 0:
                continue
            lit = np.argwhere(np.asarray(out)[..., 0] > 120)
            y1, x1 = lit.min(0)
            y2, x2 = lit.max(0) + 1
            np.testing.assert_allclose(moved[0, 1:], (x1, y1, x2, y2), atol=2.0)

    def test_colour_jitter_keeps_grey_grey_and_stays_in_range(self) -> None:
        random.seed(1)
        torch.manual_seed(1)
        grey = torch.full((3, 8, 8), 0.5)
        out = augment_colour(grey)
        # White balance may tint grey a little, saturation cannot invent more colour than that.
        self.assertLess(float(out.max() - out.min()), 0.2)
        self.assertTrue(bool(((augment_colour(torch.rand(3, 8, 8)) >= 0) & (augment_colour(torch.rand(3, 8, 8)) <= 1)).all()))

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

    def test_bootstrap_interval_brackets_the_figure(self) -> None:
        rng = np.random.default_rng(0)
        truths, detections = [], []
        for _ in range(30):
            box = rng.uniform(0, 50, 2)
            truths.append(np.array([[0, *box, *(box + 20)]], dtype=np.float32))
            hit = rng.random() < 0.6
            found = box if hit else box + 40
            detections.append(np.array([[0, rng.random(), *found, *(found + 20)]], dtype=np.float32))
        aps, _ = class_ap(detections, truths, 0)
        interval = bootstrap_interval(detections, truths, 0, samples=200)
        low, high = interval['ap50_ci95']
        self.assertTrue(low < aps[0] < high)
        self.assertTrue(0 <= low and high <= 1)

    def test_interpolation_uses_101_recall_points(self) -> None:
        self.assertAlmostEqual(average_precision(np.array([0.5]), np.array([1.0])), 51 / 101)


class AssignerTest(unittest.TestCase):
    def test_only_cells_inside_a_box_become_positives_of_its_class(self) -> None:
        size = 64
        points, _ = anchor_points(size)
        cells = len(points)
        scores = torch.full((1, cells, len(XRAY_CLASSES)), 0.5)
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
    def export_tiny(self, kind: str, folder: Path) -> tuple[onnx.ModelProto, list[str]]:
        torch.manual_seed(0)
        config = {'kind': kind, 'imgsz': 64, 'width': [8, 8, 16, 16, 32], 'depth': 1}
        detector = build_model(config)
        weights = folder / 'best.pt'
        torch.save({'epoch': 1, 'config': config, 'ema': detector.eval().state_dict(), 'history': []}, weights)
        out = export_onnx.export(weights, folder / 'tiny.onnx')
        return onnx.load(str(out)), json.loads((folder / 'tiny.labels.json').read_text())

    def test_export_writes_the_yolov8_layout_and_names(self) -> None:
        for kind in ('xray', 'photo'):
            with self.subTest(kind=kind), tempfile.TemporaryDirectory() as folder:
                model, labels = self.export_tiny(kind, Path(folder))
                names = KINDS[kind].class_names
                metadata = {p.key: p.value for p in model.metadata_props}
                self.assertEqual(ast.literal_eval(metadata['names']), dict(enumerate(names)))
                self.assertEqual(labels, list(names))
                self.assertEqual(metadata['imgsz'], '[64, 64]')
                self.assertEqual(metadata['license'], KINDS[kind].licence)
                self.assertEqual([i.name for i in model.graph.input], ['images'])
                dims = [d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]
                # Grey models take RGB too: the export folds the luma weights into the first layer.
                self.assertEqual(dims, [1, 3, 64, 64])
                self.assertLessEqual(model.opset_import[0].version, 17)


if __name__ == '__main__':
    unittest.main()
