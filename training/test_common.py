"""Tests of the training code that need neither PyTorch, NumPy nor the data set.

`npm test` runs them (through run_light_tests.py); the rest are in test_training.py.
"""

from __future__ import annotations

import tempfile
import unittest
from pathlib import Path

from common import PHOTO_CLASSES, read_boxes, read_dota_boxes, source_id
from prepare_split import split_by_source, split_stratified


class LabelTest(unittest.TestCase):
    def assert_box(self, box: tuple[int, float, float, float, float], expected: tuple[int, ...]) -> None:
        self.assertEqual(box[0], expected[0])
        for value, wanted in zip(box[1:], expected[1:], strict=True):
            self.assertAlmostEqual(value, wanted, places=6)

    def test_reads_boxes_and_polygons(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / 'a.txt'
            path.write_text('2 0.5 0.5 0.2 0.4\n1 0.1 0.2 0.3 0.2 0.3 0.6 0.1 0.6\n')
            boxes = read_boxes(path)
        self.assert_box(boxes[0], (2, 0.4, 0.3, 0.6, 0.7))
        self.assert_box(boxes[1], (1, 0.1, 0.2, 0.3, 0.6))

    def test_reads_dota_rows_in_pixels_as_normalised_boxes(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / 'a.txt'
            path.write_text('20 10 60 10 60 50 20 50 cavity 0\n0 0 250 0 250 120 0 120 normal 1\n\n')
            boxes = read_dota_boxes(path, PHOTO_CLASSES, width=200, height=100)
        self.assert_box(boxes[0], (0, 0.1, 0.1, 0.3, 0.5))
        # Clipped to the image.
        self.assert_box(boxes[1], (1, 0.0, 0.0, 1.0, 1.0))

    def test_refuses_an_unknown_class_or_a_short_row(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / 'a.txt'
            path.write_text('1 1 2 1 2 2 1 2 plaque 0\n')
            with self.assertRaises(ValueError):
                read_dota_boxes(path, PHOTO_CLASSES, 10, 10)
            path.write_text('1 1 2 1 cavity\n')
            with self.assertRaises(ValueError):
                read_dota_boxes(path, PHOTO_CLASSES, 10, 10)

    def test_source_id_is_the_numeric_prefix(self) -> None:
        self.assertEqual(source_id('0042_jpg.rf.0123abcd.jpg'), '0042')
        with self.assertRaises(ValueError):
            source_id('photo.jpg')


class SplitTest(unittest.TestCase):
    def test_copies_of_a_source_stay_together(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            for folder_name in ('train', 'valid', 'test'):
                (root / 'data' / folder_name / 'images').mkdir(parents=True)
            for index in range(40):
                for copy, folder_name in enumerate(('train', 'valid', 'test')[: 1 + index % 3]):
                    (root / 'data' / folder_name / 'images' / f'{index:04d}_jpg.rf.{copy:x}0.jpg').touch()
            images = sorted(p.relative_to(root).as_posix() for p in root.glob('data/*/images/*.jpg'))
            split = split_by_source(images, seed=3, fractions=(0.8, 0.1, 0.1))
        ids = {name: {source_id(Path(rel).name) for rel in images} for name, images in split.items()}
        self.assertEqual(sum(len(v) for v in ids.values()), 40)
        self.assertEqual((len(ids['train']), len(ids['val']), len(ids['test'])), (32, 4, 4))
        self.assertFalse(ids['train'] & ids['val'] or ids['train'] & ids['test'] or ids['val'] & ids['test'])

    def test_each_split_gets_its_share_of_images_with_a_cavity(self) -> None:
        images = [f'train/images/{index:03d}.jpg' for index in range(100)]
        positive = set(images[:60])
        split = split_stratified(images, positive, seed=7, fractions=(0.7, 0.15, 0.15))
        self.assertEqual(sorted(sum(split.values(), [])), images)
        shares = {name: (len(paths), len(set(paths) & positive)) for name, paths in split.items()}
        self.assertEqual(shares, {'train': (70, 42), 'val': (15, 9), 'test': (15, 9)})


if __name__ == '__main__':
    unittest.main()
