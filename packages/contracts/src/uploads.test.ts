import { describe, expect, it } from 'vitest';
import {
  estimateDataUrlBytes,
  imageMaxBytes,
  imageTooLargeMessage,
  pdfMaxBytes,
  pdfTooLargeMessage,
  uploadLimitFor,
} from './uploads';

/** The canonical base64 of `byteCount` zero bytes: 'AAAA' per 3 bytes, then a padded tail. */
function dataUrlOf(byteCount: number, type = 'image/png'): string {
  const tail = ['', 'AA==', 'AAA='][byteCount % 3] ?? '';
  return `data:${type};base64,${'AAAA'.repeat(Math.floor(byteCount / 3))}${tail}`;
}

describe('estimateDataUrlBytes', () => {
  it.each([0, 1, 2, 3, 4, 5, 6, 7, 100, 1001, 65_537])(
    'gives the exact decoded size of %i bytes, whatever the padding',
    (byteCount) => {
      expect(estimateDataUrlBytes(dataUrlOf(byteCount))).toBe(byteCount);
    },
  );

  it('is exact for unpadded base64 too', () => {
    const unpadded = dataUrlOf(5).replace(/=+$/, '');
    expect(estimateDataUrlBytes(unpadded)).toBe(5);
  });

  it('reads the payload after the first comma, whatever the header says', () => {
    expect(estimateDataUrlBytes(dataUrlOf(10, 'application/pdf;name=a=b'))).toBe(10);
  });

  it('puts the 5 MB edge exactly at 5 MiB', () => {
    expect(estimateDataUrlBytes(dataUrlOf(imageMaxBytes))).toBe(5 * 1024 * 1024);
    expect(estimateDataUrlBytes(dataUrlOf(imageMaxBytes + 1))).toBeGreaterThan(imageMaxBytes);
  });

  it('counts nothing for an empty payload', () => {
    expect(estimateDataUrlBytes('data:image/png;base64,')).toBe(0);
  });
});

describe('uploadLimitFor', () => {
  it.each([
    ['image/jpeg', imageMaxBytes, imageTooLargeMessage],
    ['image/png', imageMaxBytes, imageTooLargeMessage],
    ['image/webp', imageMaxBytes, imageTooLargeMessage],
    ['application/pdf', pdfMaxBytes, pdfTooLargeMessage],
  ] as const)('limits %s to %i bytes', (type, maxBytes, message) => {
    expect(uploadLimitFor(type)).toEqual({ maxBytes, message });
  });

  it('keeps the product wording of the image message', () => {
    expect(imageTooLargeMessage).toBe('File size exceeds 5 MB. Please upload smaller file');
  });
});
