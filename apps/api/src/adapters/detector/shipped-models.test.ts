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
import { LocalInference } from './local-inference';
import { findModelSources } from './model-spec';
import { PipelineDetector } from './pipeline-detector';
import type { Detection } from './detector';
import type { Box } from './letterbox';

const repoRoot = path.resolve(import.meta.dirname, '../../../../..');
const modelsDir = path.join(repoRoot, 'models');
const dataset = path.resolve(repoRoot, '../shared/datasets/dental-xray-4class');
const photoDataset = path.resolve(repoRoot, '../shared/datasets/dental-cavity-photos');

let detector: PipelineDetector;
/** The same models with no threshold instead of their operating points, so that a synthetic
 *  image surely yields boxes (the X-ray model scores no impacted tooth on it above 0.001). */
let eager: PipelineDetector;
const eagerConfidence = 0;

beforeAll(async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'shipped-'));
  const config = loadConfig({ DATA_DIR: dataDir });
  detector = createDetector(config.dentalAi, config.dataDir);
  eager = new PipelineDetector(
    async () =>
      Object.fromEntries(
        Object.entries(await findModelSources(config.dentalAi, config.dataDir)).map(
          ([slot, { path: modelPath, reportedClasses }]) => [
            slot,
            { path: modelPath, ...(reportedClasses === undefined ? {} : { reportedClasses }) },
          ],
        ),
      ),
    new LocalInference(2),
    { confidence: eagerConfidence, iou: config.dentalAi.iou },
  );
  await Promise.all([detector.load(), eager.load()]);
});

afterAll(async () => {
  await Promise.all([detector.close(), eager.close()]);
});

describe('the shipped models', () => {
  it('serve both types out of the box', () => {
    expect(detector.imageKinds('caries')).toEqual(['photo', 'xray']);
    expect(detector.imageKinds('wisdom_teeth')).toEqual(['xray']);
    expect(detector.modelOf('caries')?.name).toBe('dental-xray-416');
    expect(detector.modelOf('caries_photo')?.name).toBe('dental-photo-2class');
  });

  it.each([
    ['caries', 'dental-xray-416'],
    ['caries_photo', 'dental-photo-2class'],
  ] as const)('%s: %s has a <name>.labels.json that matches its own class names', (slot, name) => {
    const labels = JSON.parse(
      readFileSync(path.join(modelsDir, `${name}.labels.json`), 'utf8'),
    ) as string[];
    const facts = readModelFacts(readFileSync(path.join(modelsDir, `${name}.onnx`)));
    expect(parseNamesLiteral(facts.metadata.get('names') ?? '')).toEqual(labels);
    expect(detector.modelOf(slot)?.classNames).toEqual(labels);
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

describe('the shipped photo model', () => {
  it('reads a colour photo by its pixels and answers Cavity boxes only', async () => {
    // A phone-photo-like drawing: a row of pale teeth, one with a dark brown spot, between gums.
    const [width, height] = [480, 320];
    const pixels = Buffer.alloc(width * height * 3);
    for (let index = 0; index < width * height; index += 1) {
      const x = index % width;
      const y = Math.floor(index / width);
      const tooth = y > 100 && y < 220 && x % 60 > 6;
      const spot = tooth && Math.hypot(x - 150, y - 160) < 14;
      const colour = spot ? [70, 45, 30] : tooth ? [228, 218, 190] : [185, 75, 85];
      pixels.set(colour, index * 3);
    }
    const jpeg = await sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg()
      .toBuffer();
    const outcome = await eager.detect('caries', jpeg);
    expect(outcome).toMatchObject({
      imageKind: 'photo',
      imageKindSource: 'pixels',
      model: { name: 'dental-photo-2class' },
    });
    expect(outcome.detections.length).toBeGreaterThan(0);
    expect(new Set(outcome.detections.map((box) => box.label))).toEqual(new Set(['Cavity']));
  });
});

/** Whether some detection overlaps some labelled box with an IoU of at least 0.3. */
function findsOneOf(truth: Box[], detections: Detection[]): boolean {
  return truth.some((labelled) =>
    detections.some(
      (box) =>
        intersectionOverUnion(labelled, {
          x1: box.xmin,
          y1: box.ymin,
          x2: box.xmax,
          y2: box.ymax,
        }) >= 0.3,
    ),
  );
}

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
      if (findsOneOf(truth, outcome.detections)) found += 1;
    }
    expect(found).toBeGreaterThanOrEqual(4);
  });
});

/** DOTA label lines (four corners in pixels, then the class) of the cavities, as corners. */
function labelledCavities(imagePath: string) {
  const labelPath = imagePath.replace('/images/', '/labelTxt/').replace(/\.jpg$/, '.txt');
  return readFileSync(labelPath, 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[8] === 'cavity')
    .map((fields) => {
      const corners = fields.slice(0, 8).map(Number);
      const xs = corners.filter((_, index) => index % 2 === 0);
      const ys = corners.filter((_, index) => index % 2 === 1);
      return { x1: Math.min(...xs), y1: Math.min(...ys), x2: Math.max(...xs), y2: Math.max(...ys) };
    });
}

describe.runIf(existsSync(photoDataset))('the shipped photo model on held-out photos', () => {
  // Five held-out (test split) photos with cavities, of four different photo series. The model
  // misses healthy_teeth_100 (3 of the 43 such test photos get no overlapping box); the check
  // allows one miss in five.
  const heldOut = [
    'train/images/101_0758_JPG_jpg.rf.9e792a871b82e7c9ae3dafd51895aaa1.jpg',
    'train/images/13_jpg.rf.8a901e5232933a01a8f68fd156062f21.jpg',
    'train/images/396_jpg.rf.060072be45847e587434115b057a63aa.jpg',
    'train/images/60_jpg.rf.d1503769e211001658051bcb8652981b.jpg',
    'train/images/healthy_teeth_100_jpg.rf.a5924bd35575be5df629ea3c373cab2a.jpg',
  ];

  it('are all in the test split of training/split-photos.json', () => {
    const split = JSON.parse(
      readFileSync(path.join(repoRoot, 'training/split-photos.json'), 'utf8'),
    ) as { test: string[] };
    expect(split.test).toEqual(expect.arrayContaining(heldOut));
  });

  it('are read as photos and a labelled cavity (IoU ≥ 0.3) is found in at least four of five', async () => {
    let found = 0;
    for (const image of heldOut) {
      const imagePath = path.join(photoDataset, image);
      const outcome = await detector.detect('caries', readFileSync(imagePath));
      expect(outcome).toMatchObject({ imageKind: 'photo', model: { name: 'dental-photo-2class' } });
      const truth = labelledCavities(imagePath);
      expect(truth.length).toBeGreaterThan(0);
      if (findsOneOf(truth, outcome.detections)) found += 1;
    }
    expect(found).toBeGreaterThanOrEqual(4);
  });
});
