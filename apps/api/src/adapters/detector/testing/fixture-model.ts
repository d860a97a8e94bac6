import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ModelProto, onnxAttributeType, onnxDataType } from '../onnx-proto';

export interface FixtureModelOptions {
  /** Output layout: Ultralytics YOLOv8 `[1, 4+C, N]` or YOLOv5 `[1, N, 5+C]`. */
  layout?: 'yolov8' | 'yolov5';
  /** Square input size in pixels; a multiple of `cell`. */
  size?: number;
  /** Where the class names go: the `names` metadata entry (as Ultralytics writes it) or nowhere. */
  namesIn?: 'metadata' | 'none';
  /** YOLOv5 only: the constant objectness every box gets. */
  objectness?: number;
}

/** The fixture's classes: a cell that is pure red is a 'red' object, pure blue a 'blue' one. */
export const fixtureClassNames = ['red', 'blue'] as const;
/** Every box of the fixture is one cell of this many input pixels. */
export const fixtureCell = 8;

function floatTensor(name: string, dims: number[], values: number[]) {
  return { name, dims, dataType: onnxDataType.float, floatData: values };
}

function int64Tensor(name: string, values: number[]) {
  return { name, dims: [values.length], dataType: onnxDataType.int64, int64Data: values };
}

function ints(name: string, values: number[]) {
  return { name, type: onnxAttributeType.ints, ints: values };
}

function tensorInfo(name: string, shape: number[]) {
  return {
    name,
    type: {
      tensorType: {
        elemType: onnxDataType.float,
        shape: { dim: shape.map((dimValue) => ({ dimValue })) },
      },
    },
  };
}

/**
 * A real ONNX detection model small enough to build in a test: the image is averaged over
 * 8×8-pixel cells, and a cell scores 1 for 'red' when it is pure red (2R − 2G − 2B − 1, clipped
 * at 0) and 1 for 'blue' when it is pure blue. Black, white and the letterbox's grey 114 score 0.
 * Each cell's box is the cell itself, in input pixels, so the boxes a test gets back depend only
 * on where the coloured squares of its image are.
 */
export function buildFixtureModel(options: FixtureModelOptions = {}): Uint8Array {
  const layout = options.layout ?? 'yolov8';
  const size = options.size ?? 64;
  const grid = size / fixtureCell;
  if (!Number.isInteger(grid)) throw new Error(`size must be a multiple of ${fixtureCell}.`);
  const anchors = grid * grid;
  const classes = fixtureClassNames.length;

  const centres = Array.from({ length: anchors }, (_, index) => ({
    x: ((index % grid) + 0.5) * fixtureCell,
    y: (Math.floor(index / grid) + 0.5) * fixtureCell,
  }));
  const boxes = [
    ...centres.map((centre) => centre.x),
    ...centres.map((centre) => centre.y),
    ...centres.map(() => fixtureCell),
    ...centres.map(() => fixtureCell),
  ];

  const initializer = [
    // Output channels 'red' and 'blue' from the input's R, G, B.
    floatTensor('class_weights', [classes, 3, 1, 1], [2, -2, -2, -2, -2, 2]),
    floatTensor('class_bias', [classes], [-1, -1]),
    int64Tensor('scores_shape', [1, classes, anchors]),
    floatTensor('boxes', [1, 4, anchors], boxes),
  ];
  const node = [
    {
      opType: 'AveragePool',
      input: ['images'],
      output: ['cells'],
      attribute: [
        ints('kernel_shape', [fixtureCell, fixtureCell]),
        ints('strides', [fixtureCell, fixtureCell]),
      ],
    },
    { opType: 'Conv', input: ['cells', 'class_weights', 'class_bias'], output: ['logits'] },
    { opType: 'Relu', input: ['logits'], output: ['cell_scores'] },
    { opType: 'Reshape', input: ['cell_scores', 'scores_shape'], output: ['scores'] },
  ];

  let outputShape: number[];
  if (layout === 'yolov8') {
    node.push({
      opType: 'Concat',
      input: ['boxes', 'scores'],
      output: ['output0'],
      attribute: [{ name: 'axis', type: onnxAttributeType.int, i: 1 } as never],
    });
    outputShape = [1, 4 + classes, anchors];
  } else {
    initializer.push(
      floatTensor(
        'objectness',
        [1, 1, anchors],
        Array.from({ length: anchors }, () => options.objectness ?? 0.9),
      ),
    );
    node.push(
      {
        opType: 'Concat',
        input: ['boxes', 'objectness', 'scores'],
        output: ['channels_first'],
        attribute: [{ name: 'axis', type: onnxAttributeType.int, i: 1 } as never],
      },
      {
        opType: 'Transpose',
        input: ['channels_first'],
        output: ['output0'],
        attribute: [ints('perm', [0, 2, 1])],
      },
    );
    outputShape = [1, anchors, 5 + classes];
  }

  const names = `{${fixtureClassNames.map((name, index) => `${String(index)}: '${name}'`).join(', ')}}`;
  const model = ModelProto.fromObject({
    irVersion: 8,
    producerName: 'dental-companion test fixture',
    opsetImport: [{ domain: '', version: 17 }],
    metadataProps:
      options.namesIn === 'none'
        ? []
        : [
            { key: 'names', value: names },
            { key: 'imgsz', value: `[${String(size)}, ${String(size)}]` },
          ],
    graph: {
      name: `fixture_${layout}`,
      node,
      initializer,
      input: [tensorInfo('images', [1, 3, size, size])],
      output: [tensorInfo('output0', outputShape)],
    },
  });
  return ModelProto.encode(model).finish();
}

/** Writes the fixture model (creating its folder), for tests and the browser journeys' server. */
export async function writeFixtureModel(
  filePath: string,
  options?: FixtureModelOptions,
): Promise<void> {
  await mkdir(path.dirname(filePath), { recursive: true });
  await writeFile(filePath, buildFixtureModel(options));
}
