import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { makeDicom, makeNestedSequenceDicom } from '#api-test/fixtures/dicom-test-files';
import {
  checkDicomStructure,
  dicomStructureLimits,
  dicomTooComplexMessage,
} from './dicom-structure';

/** An explicit-VR OB element of a private tag holding `length` zero bytes. */
function blob(length: number): Buffer {
  const element = Buffer.alloc(12 + length);
  element.writeUInt16LE(0x0009, 0);
  element.writeUInt16LE(0x1010, 2);
  element.write('OB', 4, 'latin1');
  element.writeUInt32LE(length, 8);
  return element;
}

describe('DICOM structure limits', () => {
  it('takes an ordinary X-ray and sequences as deep as the limit', () => {
    expect(() => {
      checkDicomStructure(makeDicom({ width: 2, height: 1, values: [0, 1] }));
    }).not.toThrow();
    expect(() => {
      checkDicomStructure(makeNestedSequenceDicom(dicomStructureLimits.maxDepth));
    }).not.toThrow();
  });

  it('refuses one level deeper, and 50,000 levels at once', () => {
    for (const depth of [dicomStructureLimits.maxDepth + 1, 50_000]) {
      expect(() => {
        checkDicomStructure(makeNestedSequenceDicom(depth));
      }).toThrow(dicomTooComplexMessage);
    }
  });

  it('refuses megabytes inside an undefined-length item, which dcmjs would scan once per item', () => {
    const nested = makeNestedSequenceDicom(1);
    // The blob goes inside the one item: before its item and sequence delimiters (16 bytes).
    const inside = Buffer.concat([
      nested.subarray(0, -16),
      blob(dicomStructureLimits.maxScannedAhead),
      nested.subarray(-16),
    ]);
    expect(() => {
      checkDicomStructure(inside);
    }).toThrow(dicomTooComplexMessage);
    const outside = Buffer.concat([nested, blob(dicomStructureLimits.maxScannedAhead)]);
    expect(() => {
      checkDicomStructure(outside);
    }).not.toThrow();
  });

  it('refuses more elements than the limit', () => {
    const head = makeDicom({ width: 1, height: 1, values: [0], withoutPixels: true });
    const crowded = Buffer.concat([
      head,
      ...Array<Buffer>(dicomStructureLimits.maxElements).fill(blob(0)),
    ]);
    expect(() => {
      checkDicomStructure(crowded);
    }).toThrow(dicomTooComplexMessage);
  });

  it('refuses a deflated dataset that inflates beyond the bound', () => {
    const deflated = makeDicom({
      width: 1,
      height: 1,
      values: [0],
      transferSyntax: '1.2.840.10008.1.2.1.99',
    });
    // The file meta group ends where its group length (0002,0000), the first element, says.
    const metaEnd = 132 + 12 + deflated.readUInt32LE(132 + 8);
    const bomb = Buffer.concat([
      deflated.subarray(0, metaEnd),
      deflateRawSync(Buffer.alloc(dicomStructureLimits.maxInflatedBytes + 1)),
    ]);
    expect(() => {
      checkDicomStructure(deflated);
    }).not.toThrow();
    expect(() => {
      checkDicomStructure(bomb);
    }).toThrow(dicomTooComplexMessage);
  });
});
