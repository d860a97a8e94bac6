"""Export a checkpoint to ONNX in the Ultralytics YOLOv8 detection layout and verify it.

Input `images` [1, 3, S, S] float32 RGB in 0..1 (letterboxed by the caller). Output `output0`
[1, 4 + classes, N]: rows centre-x, centre-y, width, height in input pixels, then one sigmoid
score per class, no objectness. Class names are in `metadata_props` (`names`, a Python dict
literal, as Ultralytics writes it) and in labels.json beside the model.
"""

from __future__ import annotations

import argparse
import datetime
import json
from pathlib import Path

import numpy as np
import onnx
import torch
from torch import nn

import onnx_numpy
from common import MODELS_DIR
from data import LUMA
from evaluate import checkpoint_kind, load_model
from model import STRIDES, Detector, anchor_points, flatten

MAX_BYTES = 15 * 1024 * 1024
VERSION = '1.0.0'


class YoloLayout(nn.Module):
    """Wraps the detector: RGB in, YOLOv8-layout boxes and scores out."""

    def __init__(self, detector: Detector, size: int) -> None:
        super().__init__()
        self.detector = detector
        points, strides = anchor_points(size)
        self.register_buffer('points', points)
        self.register_buffer('strides', strides)
        stem = detector.stem[0]
        assert isinstance(stem, nn.Conv2d)
        if stem.in_channels == 3:
            return
        # Fold the grey conversion into the first convolution: grey = sum(luma_c * rgb_c), and a
        # convolution is linear in its input, so weights w become w * luma_c per input channel.
        rgb_stem = nn.Conv2d(3, stem.out_channels, stem.kernel_size, stem.stride, stem.padding, bias=False)
        rgb_stem.weight.data = stem.weight.data * torch.tensor(LUMA).view(1, 3, 1, 1)
        detector.stem[0] = rgb_stem

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        ltrb, logits = flatten(self.detector(images))
        distances = ltrb * self.strides
        top_left = self.points - distances[..., :2]
        bottom_right = self.points + distances[..., 2:]
        centre = (top_left + bottom_right) / 2
        size = bottom_right - top_left
        return torch.cat((centre, size, logits.sigmoid()), 2).transpose(1, 2)


def reference_output(detector: Detector, images: torch.Tensor, size: int) -> torch.Tensor:
    """The same layout computed from the unwrapped detector (grey or RGB), independent of the wrapper."""
    if detector.stem[0].in_channels == 1:
        images = (images * torch.tensor(LUMA).view(1, 3, 1, 1)).sum(1, keepdim=True)
    points, strides = anchor_points(size)
    ltrb, logits = flatten(detector(images))
    distances = ltrb * strides
    x1y1, x2y2 = points - distances[..., :2], points + distances[..., 2:]
    return torch.cat(((x1y1 + x2y2) / 2, x2y2 - x1y1, logits.sigmoid()), 2).transpose(1, 2)


def export(weights: Path, out: Path, opset: int = 17) -> Path:
    """Write the ONNX file and <name>.labels.json, then check the graph and compare it with PyTorch."""
    detector, checkpoint = load_model(weights)
    reference, _ = load_model(weights)
    kind = checkpoint_kind(checkpoint['config'])
    size = int(checkpoint['config']['imgsz'])
    wrapper = YoloLayout(detector, size).eval()
    dummy = torch.rand(1, 3, size, size)
    out.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(
        wrapper, dummy, str(out), opset_version=opset, input_names=['images'], output_names=['output0'], do_constant_folding=True
    )
    model = onnx.load(str(out))
    metadata = {
        'description': kind.description,
        'author': 'Dental Companion',
        'date': datetime.date.today().isoformat(),
        'version': VERSION,
        'license': kind.licence,
        'docs': 'models/MODEL_CARD.md',
        'stride': str(max(STRIDES)),
        'task': 'detect',
        'batch': '1',
        'imgsz': f'[{size}, {size}]',
        'names': repr(dict(enumerate(kind.class_names))),
        'epochs': str(checkpoint['epoch']),
    }
    del model.metadata_props[:]
    for key, value in metadata.items():
        model.metadata_props.add(key=key, value=value)
    model.producer_name = 'dental-companion-training'
    onnx.save(model, str(out))
    (out.parent / f'{out.stem}.labels.json').write_text(json.dumps(list(kind.class_names)) + '\n')
    verify(out, reference, size)
    return out


def verify(path: Path, reference: Detector, size: int) -> None:
    """onnx.checker, shape inference, size limit, and the graph's numbers against PyTorch."""
    model = onnx.load(str(path))
    onnx.checker.check_model(model, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(model)
    output = inferred.graph.output[0]
    dims = [d.dim_value for d in output.type.tensor_type.shape.dim]
    cells = sum((size // s) ** 2 for s in STRIDES)
    expected = [1, 4 + reference.num_classes, cells]
    if output.name != 'output0' or dims != expected:
        raise AssertionError(f'output {output.name} {dims}, expected output0 {expected}')
    if path.stat().st_size > MAX_BYTES:
        raise AssertionError(f'{path} is {path.stat().st_size} bytes, over 15 MB')
    images = torch.rand(1, 3, size, size, generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        expected_out = reference_output(reference, images, size).numpy()
    (actual,) = onnx_numpy.run(model, {'images': images.numpy()})
    box_error = float(np.abs(actual[:, :4] - expected_out[:, :4]).max())
    score_error = float(np.abs(actual[:, 4:] - expected_out[:, 4:]).max())
    print(f'{path}: {path.stat().st_size / 1e6:.2f} MB, output0 {dims}, opset {model.opset_import[0].version}')
    print(f'ONNX graph (NumPy) vs PyTorch: max box error {box_error:.2e} px, max score error {score_error:.2e}')
    if box_error > 1e-2 or score_error > 1e-4:
        raise AssertionError('ONNX graph disagrees with PyTorch')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--weights', type=Path, required=True, help='checkpoint (best.pt)')
    parser.add_argument('--out', type=Path, default=MODELS_DIR / 'dental-xray-4class.onnx')
    parser.add_argument('--opset', type=int, default=17)
    args = parser.parse_args()
    torch.set_num_threads(2)
    export(args.weights, args.out, args.opset)


if __name__ == '__main__':
    main()
