import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '#api/config';
import { createDetector } from './create-detector';
import { readModelFacts } from './onnx-proto';
import { intersectionOverUnion } from './nms';
import { parseNamesLiteral } from './class-names';
import type { PipelineDetector } from './pipeline-detector';

const repoRoot = path.resolve(import.meta.dirname, '../../../../..');
const modelsDir = path.join(repoRoot, 'models');
const dataset = path.resolve(repoRoot, '../shared/datasets/dental-xray-4class');

let detector: PipelineDetector;
/** The same models with a low threshold, so that a synthetic image surely yields boxes. */
let eager: PipelineDetector;
const eagerConfidence = 0.001;

beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'shipped-'));
  const config = loadConfig({ DATA_DIR: dataDir });
  detector = createDetector(config.dentalAi, config.dataDir);
  const eagerConfig = loadConfig({
    DATA_DIR: dataDir,
    DENTAL_AI_CONFIDENCE: String(eagerConfidence),
  });
  eager = createDetector(eagerConfig.dentalAi, eagerConfig.dataDir);
  await Promise.all([detector.load(), eager.load()]);
});

afterAll(async () => {
  await Promise.all([detector.close(), eager.close()]);
});

describe('the shipped models (issue 7)', () => {
  it('serve both types out of the box', () => {
    expect(detector.available('caries')).toBe(true);
    expect(detector.available('wisdom_teeth')).toBe(true);
    expect(detector.modelOf('caries')?.name).toBe('dental-xray-4class');
  });

  it('have a labels.json that matches the model’s own class names', () => {
    const labels = JSON.parse(
      readFileSync(path.join(modelsDir, 'labels.json'), 'utf8'),
    ) as string[];
    const facts = readModelFacts(readFileSync(path.join(modelsDir, 'dental-xray-4class.onnx')));
    expect(parseNamesLiteral(facts.metadata.get('names') ?? '')).toEqual(labels);
    expect(detector.modelOf('caries')?.classNames).toEqual(labels);
  });

  it('run on a synthetic image and answer well-formed boxes of the type’s class only', async () => {
    // A panoramic-shaped drawing of two rows of 16 teeth: bright rounded columns on a dark jaw.
    const width = 960;
    const height = 480;
    const pixels = Buffer.alloc(width * height);
    for (let y = 0; y < height; y += 1) {
      const upper = y > 90 && y < 220;
      const lower = y > 260 && y < 390;
      const root = (upper && y < 120) || (lower && y > 360);
      for (let x = 0; x < width; x += 1) {
        const tooth = Math.sqrt(Math.sin(((x % 60) / 60) * Math.PI));
        const value = upper || lower ? 60 + Math.round(150 * tooth) : 40;
        pixels[y * width + x] = root ? Math.round(value * 0.7) : value;
      }
    }
    const jpeg = await sharp(pixels, { raw: { width, height, channels: 1 } })
      .jpeg()
      .toBuffer();

    for (const [type, label] of [
      ['caries', 'Cavity'],
      ['wisdom_teeth', 'Impacted Tooth'],
    ] as const) {
      const started = performance.now();
      const outcome = await eager.detect(type, jpeg);
      // Printed, not asserted (tests never assert on time): the goal is well under a second.
      console.info(`shipped model, ${type}: ${(performance.now() - started).toFixed(0)} ms`);
      expect([outcome.width, outcome.height]).toEqual([width, height]);
      expect(outcome.detections.length).toBeGreaterThan(0);
      for (const box of outcome.detections) {
        expect(box.label).toBe(label);
        expect(box.confidence).toBeGreaterThanOrEqual(eagerConfidence);
        expect(box.confidence).toBeLessThanOrEqual(1);
        expect(0 <= box.xmin && box.xmin < box.xmax && box.xmax <= width).toBe(true);
        expect(0 <= box.ymin && box.ymin < box.ymax && box.ymax <= height).toBe(true);
      }
    }
  });
});

/** YOLO label lines (class cx cy w h, normalised) of one class, as pixel corners. */
function labelledBoxes(imagePath: string, classIndex: number, size: number) {
  const labelPath = imagePath.replace('/images/', '/labels/').replace(/\.jpg$/, '.txt');
  return readFileSync(labelPath, 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter(([label]) => label === classIndex)
    .map(([, cx = 0, cy = 0, w = 0, h = 0]) => ({
      x1: (cx - w / 2) * size,
      y1: (cy - h / 2) * size,
      x2: (cx + w / 2) * size,
      y2: (cy + h / 2) * size,
    }));
}

describe.runIf(existsSync(dataset))('the shipped model on held-out panoramics', () => {
  // Five held-out (test split) images with impacted teeth, from five different source pictures.
  // 0062 is one the model misses; the goal allows one miss in five.
  const heldOut = [
    'data/test/images/0083_jpg.rf.6f4db2bc7398ae866ea996457feaa0c0.jpg',
    'data/train/images/0060_jpg.rf.6dacfb96655512bd65bdc497e45a1fa9.jpg',
    'data/train/images/0062_jpg.rf.30357de84fdfb76ebbe5c31b326c8f5a.jpg',
    'data/train/images/0213_jpg.rf.fbf79433cbbc43295eb9f58d355de738.jpg',
    'data/train/images/0321_jpg.rf.d3dd87915260c8f31d45448bd6070cef.jpg',
  ];

  it('are all in the test split of training/split.json', () => {
    const split = JSON.parse(readFileSync(path.join(repoRoot, 'training/split.json'), 'utf8')) as {
      test: string[];
    };
    expect(split.test).toEqual(expect.arrayContaining(heldOut));
  });

  it('finds a labelled impacted tooth (IoU ≥ 0.3) in at least four of five', async () => {
    let found = 0;
    for (const image of heldOut) {
      const imagePath = path.join(dataset, image);
      const outcome = await detector.detect('wisdom_teeth', readFileSync(imagePath));
      const truth = labelledBoxes(imagePath, 2, outcome.width);
      expect(truth.length).toBeGreaterThan(0);
      const hit = truth.some((labelled) =>
        outcome.detections.some(
          (box) =>
            intersectionOverUnion(labelled, {
              x1: box.xmin,
              y1: box.ymin,
              x2: box.xmax,
              y2: box.ymax,
            }) >= 0.3,
        ),
      );
      if (hit) found += 1;
    }
    expect(found).toBeGreaterThanOrEqual(4);
  });
});
