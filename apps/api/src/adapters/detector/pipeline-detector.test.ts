import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Env } from '#api/config';
import { createDetector } from './create-detector';
import { DetectionFailed, DetectorUnavailable, WrongImageKind, type Detection } from './detector';
import { LocalInference } from './local-inference';
import { findModelSources } from './model-spec';
import { PipelineDetector } from './pipeline-detector';
import {
  startInferenceTestServer,
  type InferenceTestServer,
} from '#api-test/mocks/inference-test-server';
import { writeFixtureModel } from '#api-test/fixtures/fixture-model';

interface Square {
  left: number;
  top: number;
  side: number;
  colour: { r: number; g: number; b: number };
}

const red = { r: 255, g: 0, b: 0 };
const blue = { r: 0, g: 0, b: 255 };

/** A black PNG with coloured squares. */
async function image(width: number, height: number, squares: Square[]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: 'black' } })
    .composite(
      squares.map(({ left, top, side, colour }) => ({
        input: { create: { width: side, height: side, channels: 3, background: colour } },
        left,
        top,
      })),
    )
    .png()
    .toBuffer();
}

/** The smallest rectangle around all boxes of one label. */
function extentOf(detections: Detection[], label: string) {
  const boxes = detections.filter((detection) => detection.label === label);
  return {
    count: boxes.length,
    xmin: Math.min(...boxes.map((box) => box.xmin)),
    ymin: Math.min(...boxes.map((box) => box.ymin)),
    xmax: Math.max(...boxes.map((box) => box.xmax)),
    ymax: Math.max(...boxes.map((box) => box.ymax)),
  };
}

let folder: string;
const detectors: PipelineDetector[] = [];

async function detectorFor(env: Env): Promise<PipelineDetector> {
  const config = loadConfig({ DATA_DIR: await mkdtemp(path.join(folder, 'data-')), ...env });
  const detector = createDetector(config.dentalAi, config.dataDir);
  detectors.push(detector);
  await detector.load();
  return detector;
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'detector-'));
  await writeFixtureModel(path.join(folder, 'v8', 'caries.onnx'));
  await writeFixtureModel(path.join(folder, 'v5', 'wisdom.onnx'), {
    layout: 'yolov5',
    namesIn: 'none',
    objectness: 0.8,
  });
  await writeFile(path.join(folder, 'v5', 'wisdom.labels.json'), '["Rot", "Blau"]');
});

afterAll(async () => {
  await Promise.all(detectors.map((detector) => detector.close()));
});

// A 200×100 image is scaled by 0.32 into the 64-pixel input with 16 grey rows above and below,
// so a 50-pixel square at (25, 25) fills exactly four 8-pixel cells of the fixture model.
/** The four cells the red square of `wideImage` fills, as boxes in its pixels. */
const redSquareCells = { count: 4, xmin: 25, ymin: 25, xmax: 75, ymax: 75 };
const wideImage = () =>
  image(200, 100, [
    { left: 25, top: 25, side: 50, colour: red },
    { left: 125, top: 25, side: 50, colour: blue },
  ]);

describe('the detection pipeline on a real ONNX model', () => {
  it('finds each coloured square at its pixels in the original image (YOLOv8 layout)', async () => {
    const detector = await detectorFor({
      DENTAL_AI_MODEL_CARIES: path.join(folder, 'v8', 'caries.onnx'),
      DENTAL_AI_THREADS: '1',
    });
    const outcome = await detector.detect('caries', await wideImage(), 'xray');

    expect(outcome).toMatchObject({ width: 200, height: 100, model: { name: 'caries' } });
    expect(outcome.model.version).toMatch(/^sha256:[0-9a-f]{12}$/);
    expect(extentOf(outcome.detections, 'red')).toEqual(redSquareCells);
    expect(extentOf(outcome.detections, 'blue')).toEqual({
      count: 4,
      xmin: 125,
      ymin: 25,
      xmax: 175,
      ymax: 75,
    });
    for (const detection of outcome.detections) {
      expect(detection.confidence).toBeGreaterThan(0.9);
    }
  });

  it('reads YOLOv5 outputs and the names in <model>.labels.json', async () => {
    const detector = await detectorFor({
      DENTAL_AI_MODEL_WISDOM_TEETH: path.join(folder, 'v5', 'wisdom.onnx'),
    });
    const outcome = await detector.detect('wisdom_teeth', await wideImage(), 'xray');

    expect(extentOf(outcome.detections, 'Rot')).toMatchObject({ count: 4, xmin: 25, xmax: 75 });
    expect(extentOf(outcome.detections, 'Blau')).toMatchObject({ count: 4, xmin: 125, xmax: 175 });
    // The score is objectness × class score.
    for (const detection of outcome.detections) {
      expect(detection.confidence).toBeGreaterThan(0.75);
      expect(detection.confidence).toBeLessThanOrEqual(0.8);
    }
  });

  it('applies the EXIF orientation before detecting', async () => {
    // Stored 200×100; orientation 6 shows it turned 90° clockwise as 100×200, where the blue
    // square at stored x 125–175, y 25–75 lies at x 25–75, y 125–175.
    const rotated = await sharp(await wideImage())
      .jpeg({ quality: 100 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const detector = await detectorFor({
      DENTAL_AI_MODEL_CARIES: path.join(folder, 'v8', 'caries.onnx'),
    });
    const outcome = await detector.detect('caries', rotated, 'xray');

    expect([outcome.width, outcome.height]).toEqual([100, 200]);
    expect(extentOf(outcome.detections, 'blue')).toMatchObject({
      xmin: 25,
      xmax: 75,
      ymin: 125,
      ymax: 175,
    });
  });

  it('drops what scores below the configured confidence', async () => {
    const detector = await detectorFor({
      DENTAL_AI_MODEL_WISDOM_TEETH: path.join(folder, 'v5', 'wisdom.onnx'),
      DENTAL_AI_CONFIDENCE: '0.85',
    });
    const outcome = await detector.detect('wisdom_teeth', await wideImage(), 'xray');
    expect(outcome.detections).toEqual([]);
  });

  it('shows each class from its own operating point, below or above the configured confidence', async () => {
    const wisdom = path.join(folder, 'v5', 'wisdom.onnx');
    const detectorShowing = (shownFrom: Record<string, number>, confidence: number) => {
      const detector = new PipelineDetector(
        () => Promise.resolve({ wisdom_teeth: { path: wisdom, shownFrom } }),
        new LocalInference(1),
        { confidence, iou: 0.45 },
      );
      detectors.push(detector);
      return detector;
    };
    // The fixture scores every box 0.8 at most.
    const raised = detectorShowing({ Rot: 0.85 }, 0.25);
    const lowered = detectorShowing({ Blau: 0.5 }, 0.9);
    await Promise.all([raised.load(), lowered.load()]);
    const labels = async (detector: PipelineDetector) =>
      new Set(
        (await detector.detect('wisdom_teeth', await wideImage(), 'xray')).detections.map(
          (box) => box.label,
        ),
      );
    expect(await labels(raised)).toEqual(new Set(['Blau']));
    expect(await labels(lowered)).toEqual(new Set(['Blau']));
  });

  it('reads a shipped model’s operating points from the metrics file beside it', async () => {
    const shippedModelsDir = await mkdtemp(path.join(folder, 'shipped-'));
    await writeFixtureModel(path.join(shippedModelsDir, 'fixture.onnx'));
    await writeFile(
      path.join(shippedModelsDir, 'shipped-models.json'),
      JSON.stringify({
        caries: { model: 'fixture.onnx', classes: ['red'] },
        wisdom_teeth: { model: 'fixture.onnx', classes: ['blue'] },
      }),
    );
    await writeFile(
      path.join(shippedModelsDir, 'fixture.metrics.json'),
      JSON.stringify({ operating_points: { red: { possible: 0.07, likely: 0.4 } } }),
    );
    const config = loadConfig({ DATA_DIR: await mkdtemp(path.join(folder, 'data-')) });
    const sources = await findModelSources(
      { ...config.dentalAi, shippedModelsDir },
      config.dataDir,
    );
    expect(sources.caries).toEqual({
      path: path.join(shippedModelsDir, 'fixture.onnx'),
      reportedClasses: ['red'],
      shownFrom: { red: 0.07 },
    });
  });

  it('finds a type’s model in DATA_DIR/models, and has none for a type without one', async () => {
    const dataDir = await mkdtemp(path.join(folder, 'data-'));
    await writeFixtureModel(path.join(dataDir, 'models', 'wisdom_teeth.onnx'));
    const config = loadConfig({ DATA_DIR: dataDir, DENTAL_AI_SHIPPED_MODELS: 'off' });
    const detector = createDetector(config.dentalAi, config.dataDir);
    detectors.push(detector);
    await detector.load();

    expect(detector.imageKinds('wisdom_teeth')).toEqual(['xray']);
    expect(detector.imageKinds('caries')).toEqual([]);
    await expect(detector.detect('caries', await wideImage())).rejects.toBeInstanceOf(
      DetectorUnavailable,
    );
  });

  it('refuses to start with a configured model file that is missing or unreadable', async () => {
    await expect(
      detectorFor({ DENTAL_AI_MODEL_CARIES: path.join(folder, 'missing.onnx') }),
    ).rejects.toThrow(/does not exist/);
    const broken = path.join(folder, 'broken.onnx');
    await writeFile(broken, 'not a model');
    await expect(detectorFor({ DENTAL_AI_MODEL_CARIES: broken })).rejects.toThrow(
      /caries model .*broken.onnx cannot be used/,
    );
  });

  it('fails the detection when the output does not fit the class names', async () => {
    const model = path.join(folder, 'mismatch', 'caries.onnx');
    await writeFixtureModel(model, { namesIn: 'none' });
    await writeFile(path.join(folder, 'mismatch', 'labels.json'), '["a", "b", "c"]');
    const detector = await detectorFor({ DENTAL_AI_MODEL_CARIES: model });
    await expect(detector.detect('caries', await wideImage(), 'xray')).rejects.toBeInstanceOf(
      DetectionFailed,
    );
  });
});

describe('one model per image kind', () => {
  /** A grey X-ray-like PNG: the fixture model finds nothing on it, but its name shows it ran. */
  const greyImage = () =>
    sharp({ create: { width: 200, height: 100, channels: 3, background: '#777' } })
      .composite([
        {
          input: { create: { width: 50, height: 50, channels: 3, background: '#ddd' } },
          left: 25,
          top: 25,
        },
      ])
      .png()
      .toBuffer();

  async function photoAndXrayDetector(): Promise<PipelineDetector> {
    const models = path.join(folder, 'kinds');
    await writeFixtureModel(path.join(models, 'xray-model.onnx'));
    await writeFixtureModel(path.join(models, 'photo-model.onnx'));
    return detectorFor({
      DENTAL_AI_MODEL_CARIES: path.join(models, 'xray-model.onnx'),
      DENTAL_AI_MODEL_CARIES_PHOTO: path.join(models, 'photo-model.onnx'),
      DENTAL_AI_MODEL_WISDOM_TEETH: path.join(models, 'xray-model.onnx'),
    });
  }

  it('runs the photo model on a colour image and the X-ray model on a grey one', async () => {
    const detector = await photoAndXrayDetector();
    expect(detector.imageKinds('caries')).toEqual(['photo', 'xray']);
    expect(detector.imageKinds('wisdom_teeth')).toEqual(['xray']);

    const photo = await detector.detect('caries', await wideImage());
    expect(photo).toMatchObject({
      imageKind: 'photo',
      imageKindSource: 'pixels',
      model: { name: 'photo-model' },
    });
    expect(extentOf(photo.detections, 'red')).toEqual(redSquareCells);

    const xray = await detector.detect('caries', await greyImage());
    expect(xray).toMatchObject({
      imageKind: 'xray',
      imageKindSource: 'pixels',
      model: { name: 'xray-model' },
    });
  });

  it('lets the member’s kind win over the pixels', async () => {
    const detector = await photoAndXrayDetector();
    expect(await detector.detect('caries', await wideImage(), 'xray')).toMatchObject({
      imageKind: 'xray',
      imageKindSource: 'member',
      model: { name: 'xray-model' },
    });
    expect(await detector.detect('caries', await greyImage(), 'photo')).toMatchObject({
      imageKind: 'photo',
      imageKindSource: 'member',
      model: { name: 'photo-model' },
    });
  });

  it('refuses wisdom teeth on a photo, and a kind without a model', async () => {
    const detector = await photoAndXrayDetector();
    await expect(detector.detect('wisdom_teeth', await wideImage())).rejects.toBeInstanceOf(
      WrongImageKind,
    );
    await expect(
      detector.detect('wisdom_teeth', await greyImage(), 'photo'),
    ).rejects.toBeInstanceOf(WrongImageKind);
    expect(await detector.detect('wisdom_teeth', await wideImage(), 'xray')).toMatchObject({
      model: { name: 'xray-model' },
    });

    const xrayOnly = await detectorFor({
      DENTAL_AI_MODEL_CARIES: path.join(folder, 'v8', 'caries.onnx'),
      DENTAL_AI_SHIPPED_MODELS: 'off',
    });
    expect(xrayOnly.imageKinds('caries')).toEqual(['xray']);
    await expect(xrayOnly.detect('caries', await wideImage())).rejects.toMatchObject({
      name: 'DetectorUnavailable',
      kind: 'photo',
    });
  });
});

describe('remote inference (Open Inference Protocol v2)', () => {
  let server: InferenceTestServer;

  beforeAll(async () => {
    server = await startInferenceTestServer(path.join(folder, 'v8'));
  });

  afterAll(async () => {
    await server.close();
  });

  it('sends the letterboxed image to the server and decodes its answer the same way', async () => {
    const detector = await detectorFor({
      DENTAL_AI_MODEL_CARIES: path.join(folder, 'v8', 'caries.onnx'),
      DENTAL_AI_ENDPOINT: server.endpoint,
    });
    const outcome = await detector.detect('caries', await wideImage(), 'xray');

    expect(server.requests).toEqual(['caries']);
    expect(extentOf(outcome.detections, 'red')).toEqual(redSquareCells);
  });

  it('fails the detection when the server does not know the model or does not answer', async () => {
    const unknown = path.join(folder, 'elsewhere', 'unknown.onnx');
    await writeFixtureModel(unknown);
    const detector = await detectorFor({
      DENTAL_AI_MODEL_CARIES: unknown,
      DENTAL_AI_ENDPOINT: server.endpoint,
    });
    await expect(detector.detect('caries', await wideImage(), 'xray')).rejects.toThrow(
      /answered 404/,
    );

    const stopped = await startInferenceTestServer(path.join(folder, 'v8'));
    await stopped.close();
    const unreachable = await detectorFor({
      DENTAL_AI_MODEL_CARIES: path.join(folder, 'v8', 'caries.onnx'),
      DENTAL_AI_ENDPOINT: stopped.endpoint,
    });
    await expect(unreachable.detect('caries', await wideImage(), 'xray')).rejects.toBeInstanceOf(
      DetectionFailed,
    );
  });
});
