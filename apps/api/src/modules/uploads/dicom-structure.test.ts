import { describe, expect, it } from 'vitest';
import dcmjs from 'dcmjs';
import {
  deflatedExplicitLittleEndian,
  explicitLittleEndian,
  implicitLittleEndian,
  makeDeflatedDicom,
  makeDicom,
  makeNestedSequenceDicom,
  plantedPatient,
} from '#api-test/fixtures/dicom-test-files';
import {
  checkDicomStructure,
  deidentifiedDicom,
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

  // Deflating 128 MiB and inflating it again takes seconds on a busy machine.
  it('refuses a deflated dataset that inflates beyond the bound', { timeout: 30_000 }, () => {
    const spec = { width: 1, height: 1, values: [0] };
    const deflated = makeDeflatedDicom(spec);
    const bomb = makeDeflatedDicom(spec, Buffer.alloc(dicomStructureLimits.maxInflatedBytes + 1));
    expect(() => {
      checkDicomStructure(deflated);
    }).not.toThrow();
    expect(() => {
      checkDicomStructure(bomb);
    }).toThrow(dicomTooComplexMessage);
  });
});

describe('DICOM de-identification', () => {
  it('blanks names and IDs in every little-endian syntax, and keeps the pixels', () => {
    const spec = { width: 2, height: 1, values: [7, 4095] };
    for (const [transferSyntax, file] of [
      [explicitLittleEndian, makeDicom(spec)],
      [implicitLittleEndian, makeDicom({ ...spec, transferSyntax: implicitLittleEndian })],
      [deflatedExplicitLittleEndian, makeDeflatedDicom(spec)],
    ] as const) {
      const copy = deidentifiedDicom(file);
      const read = (bytes: Buffer) =>
        dcmjs.data.DicomMetaDictionary.naturalizeDataset(
          dcmjs.data.DicomMessage.readFile(Uint8Array.from(bytes).buffer).dict,
        );
      const [before, after] = [read(file), read(copy)];
      expect(before.PatientID).toBe(plantedPatient.id);
      expect([after.PatientID, after.InstitutionName], transferSyntax).toEqual([
        expect.stringMatching(/^ *$/),
        expect.stringMatching(/^ *$/),
      ]);
      expect(after.PixelData, transferSyntax).toEqual(before.PixelData);
      expect(after.SOPInstanceUID).toBe(before.SOPInstanceUID);
    }
  });
});
