"""A minimal NumPy interpreter for the ONNX graphs export_onnx.py writes.

onnxruntime is not available to Python here, so the export is checked by running the ONNX
graph itself, node by node, with NumPy and comparing it to PyTorch. Only the operators the
exported detector uses are implemented; any other operator is an error, not a guess.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx
from onnx import numpy_helper


def _attrs(node: onnx.NodeProto) -> dict:
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def _conv(x: np.ndarray, w: np.ndarray, b: np.ndarray | None, attrs: dict) -> np.ndarray:
    if attrs.get('group', 1) != 1 or any(d != 1 for d in attrs.get('dilations', [1, 1])):
        raise NotImplementedError('only plain convolutions are supported')
    top, left, bottom, right = attrs.get('pads', [0, 0, 0, 0])
    stride_y, stride_x = attrs.get('strides', [1, 1])
    padded = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)))
    kh, kw = w.shape[2:]
    windows = np.lib.stride_tricks.sliding_window_view(padded, (kh, kw), axis=(2, 3))
    windows = windows[:, :, ::stride_y, ::stride_x]  # [N, C, H, W, kh, kw]
    out = np.einsum('nchwij,ocij->nohw', windows, w, optimize=True)
    if b is not None:
        out += b[None, :, None, None]
    return out.astype(np.float32)


def _max_pool(x: np.ndarray, attrs: dict) -> np.ndarray:
    kh, kw = attrs['kernel_shape']
    top, left, bottom, right = attrs.get('pads', [0, 0, 0, 0])
    stride_y, stride_x = attrs.get('strides', [1, 1])
    padded = np.pad(x, ((0, 0), (0, 0), (top, bottom), (left, right)), constant_values=-np.inf)
    windows = np.lib.stride_tricks.sliding_window_view(padded, (kh, kw), axis=(2, 3))
    return windows[:, :, ::stride_y, ::stride_x].max(axis=(4, 5))


def _resize(x: np.ndarray, *inputs: np.ndarray | None, attrs: dict) -> np.ndarray:
    if attrs.get('mode', b'nearest') != b'nearest':
        raise NotImplementedError('only nearest resize is supported')
    scales = inputs[1] if len(inputs) > 1 and inputs[1] is not None and inputs[1].size else None
    if scales is None:
        sizes = inputs[2]
        scales = sizes / np.array(x.shape)
    factors = [int(round(s)) for s in scales]
    if any(abs(f - s) > 1e-6 for f, s in zip(factors, scales)):
        raise NotImplementedError('only integer nearest upsampling is supported')
    for axis, factor in enumerate(factors):
        x = np.repeat(x, factor, axis=axis)
    return x


def _split(x: np.ndarray, *inputs: np.ndarray | None, attrs: dict, outputs: int) -> list[np.ndarray]:
    axis = attrs.get('axis', 0)
    sizes = inputs[0] if inputs and inputs[0] is not None else attrs.get('split')
    if sizes is None:
        sizes = [x.shape[axis] // outputs] * outputs
    return np.split(x, np.cumsum(sizes)[:-1], axis=axis)


def _slice(x: np.ndarray, starts: np.ndarray, ends: np.ndarray, axes: np.ndarray | None = None, steps: np.ndarray | None = None) -> np.ndarray:
    index = [slice(None)] * x.ndim
    axes = np.arange(len(starts)) if axes is None else axes
    steps = np.ones(len(starts), dtype=np.int64) if steps is None else steps
    for start, end, axis, step in zip(starts, ends, axes, steps):
        index[int(axis)] = slice(int(start), int(min(end, np.iinfo(np.int64).max)), int(step))
    return x[tuple(index)]


def _batch_norm(x: np.ndarray, scale: np.ndarray, bias: np.ndarray, mean: np.ndarray, var: np.ndarray, attrs: dict) -> np.ndarray:
    shape = (1, -1, 1, 1)
    factor = scale / np.sqrt(var + attrs.get('epsilon', 1e-5))
    return (x - mean.reshape(shape)) * factor.reshape(shape) + bias.reshape(shape)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return (1.0 / (1.0 + np.exp(-x))).astype(np.float32)


def _softplus(x: np.ndarray) -> np.ndarray:
    return (np.logaddexp(0.0, x)).astype(np.float32)


OPS: dict[str, Callable[..., object]] = {
    'Identity': lambda x, attrs: x,
    'Add': lambda a, b, attrs: a + b,
    'Sub': lambda a, b, attrs: a - b,
    'Mul': lambda a, b, attrs: a * b,
    'Div': lambda a, b, attrs: a / b,
    'Sigmoid': lambda x, attrs: _sigmoid(x),
    'Softplus': lambda x, attrs: _softplus(x),
    'Concat': lambda *xs, attrs: np.concatenate(xs, axis=attrs['axis']),
    'Reshape': lambda x, shape, attrs: x.reshape([x.shape[i] if s == 0 else s for i, s in enumerate(shape)]),
    'Transpose': lambda x, attrs: x.transpose(attrs['perm']),
    'Conv': lambda x, w, b=None, attrs=None: _conv(x, w, b, attrs or {}),
    'MaxPool': lambda x, attrs: _max_pool(x, attrs),
    'BatchNormalization': lambda x, s, b, m, v, attrs: _batch_norm(x, s, b, m, v, attrs),
    'Slice': lambda x, *rest, attrs: _slice(x, *rest),
    'Unsqueeze': lambda x, axes, attrs: np.expand_dims(x, tuple(int(a) for a in axes)),
    'Shape': lambda x, attrs: np.array(x.shape, dtype=np.int64),
    'Gather': lambda x, i, attrs: np.take(x, i, axis=attrs.get('axis', 0)),
    'Cast': lambda x, attrs: x.astype(onnx.helper.tensor_dtype_to_np_dtype(attrs['to'])),
}


def run(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    """Evaluate the graph on the given inputs; returns the graph outputs in order."""
    values: dict[str, np.ndarray | None] = {'': None}
    values.update({init.name: numpy_helper.to_array(init) for init in model.graph.initializer})
    values.update(feeds)
    for node in model.graph.node:
        attrs = _attrs(node)
        inputs = [values[name] for name in node.input]
        if node.op_type == 'Constant':
            result: object = numpy_helper.to_array(attrs['value'])
        elif node.op_type == 'Resize':
            result = _resize(*inputs, attrs=attrs)
        elif node.op_type == 'Split':
            result = _split(inputs[0], *inputs[1:], attrs=attrs, outputs=len(node.output))
        elif node.op_type in OPS:
            result = OPS[node.op_type](*inputs, attrs=attrs)
        else:
            raise NotImplementedError(f'operator {node.op_type} is not supported by this checker')
        outputs = result if isinstance(result, list) else [result]
        for name, value in zip(node.output, outputs):
            values[name] = np.asarray(value)
    return [values[output.name] for output in model.graph.output]
