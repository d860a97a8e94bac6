import { createHash } from 'node:crypto';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  imageMaxBytes,
  imageTooLargeMessage,
  pdfMaxBytes,
  pdfTooLargeMessage,
  unreadableImageMessage,
  unsupportedImageMessage,
  unsupportedMedicalFileMessage,
} from '@dental/contracts';
import { BadRequest, DomainError } from '#api/domain-errors';
import {
  UploadAcceptance,
  malformedUploadMessage,
  medicalFileName,
  type FileExtension,
} from './upload-acceptance';
import { PayloadTooLarge, UnsupportedMediaType } from './upload-errors';
import {
  dataUrlOf,
  htmlPage,
  makeAvif,
  makeGif,
  makePdf,
  makePhoneJpeg,
  makePng,
  makeWebp,
  markAnimated,
  padPng,
  plantedMetadata,
  svgImage,
} from '#api-test/fixtures/upload-test-files';

const uploads = new UploadAcceptance();

/** The domain error a promise rejects with, to check its class, status and detail together. */
async function failureOf(promise: Promise<unknown>): Promise<DomainError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof DomainError)) throw new Error('expected the upload to be refused');
  return error;
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The stored image of each way an image is accepted. */
const acceptances = {
  acceptImage: (link: string) => uploads.acceptImage(link),
  acceptImageForDetection: async (link: string) =>
    (await uploads.acceptImageForDetection(link)).encode(),
};

describe('acceptImage', () => {
  it.each(['acceptImage', 'acceptImageForDetection'] as const)(
    '%s keeps a phone photo upright but drops its location and every other metadata',
    async (method) => {
      const original = await makePhoneJpeg(80, 40);
      const before = await sharp(original).metadata();
      expect(before.orientation).toBe(6);
      expect(before.exif).toBeDefined();
      expect(original.includes(plantedMetadata.datum)).toBe(true);

      const image = await acceptances[method](dataUrlOf(original, 'image/jpeg'));

      const after = await sharp(image.bytes).metadata();
      expect(after.format).toBe('jpeg');
      expect(after.exif).toBeUndefined();
      expect(after.xmp).toBeUndefined();
      expect(after.iptc).toBeUndefined();
      expect(after.orientation).toBeUndefined();
      // Stored sideways as 80×40 with "rotate 90°": now upright pixels, 40×80.
      expect([after.width, after.height]).toEqual([40, 80]);
      expect([image.width, image.height]).toEqual([40, 80]);
      for (const planted of Object.values(plantedMetadata)) {
        expect(image.bytes.includes(planted)).toBe(false);
      }
      expect(image).toMatchObject({ kind: 'image', contentType: 'image/jpeg', extension: 'jpg' });
      expect(image.size).toBe(image.bytes.length);
      expect(image.sha256).toBe(sha256(image.bytes));
      expect('thumbnail' in image).toBe(method === 'acceptImage');
    },
  );

  it('decodes an image for detection once: upright RGB pixels, and a stored copy as grey or as colourful as the original', async () => {
    const sideways = await uploads.acceptImageForDetection(
      dataUrlOf(await makePhoneJpeg(80, 40), 'image/jpeg'),
    );
    expect(sideways.pixels.info).toEqual({ width: 40, height: 80, channels: 3 });
    expect(sideways.pixels.data).toHaveLength(40 * 80 * 3);

    const grey = await sharp({
      create: { width: 30, height: 20, channels: 3, background: '#808080' },
    })
      .toColourspace('b-w')
      .png()
      .toBuffer();
    const colour = await makePng();
    for (const [original, channels] of [
      [grey, 1],
      [colour, (await sharp(colour).metadata()).channels],
    ] as const) {
      const image = await uploads.acceptImageForDetection(dataUrlOf(original, 'image/png'));
      const stored = await sharp((await image.encode()).bytes).metadata();
      expect(stored.channels).toBe(channels);
      const { width, height } = await sharp(original).metadata();
      expect(image.pixels.info).toEqual({ width, height, channels: 3 });
    }
  });

  it('makes an upright WebP thumbnail of at most 320 pixels a side, without metadata', async () => {
    const image = await uploads.acceptImage(
      dataUrlOf(await makePhoneJpeg(1000, 500), 'image/jpeg'),
    );
    const { thumbnail } = image;
    expect(thumbnail.contentType).toBe('image/webp');
    expect(await fileTypeFromBuffer(thumbnail.bytes)).toEqual({ ext: 'webp', mime: 'image/webp' });
    const meta = await sharp(thumbnail.bytes).metadata();
    expect([meta.width, meta.height]).toEqual([160, 320]);
    expect([thumbnail.width, thumbnail.height]).toEqual([160, 320]);
    expect(meta.exif).toBeUndefined();
    expect(thumbnail.bytes.length).toBeLessThan(image.bytes.length);
  });

  it('does not enlarge a small image for its thumbnail', async () => {
    const { thumbnail } = await uploads.acceptImage(dataUrlOf(await makePng(100, 50), 'image/png'));
    expect([thumbnail.width, thumbnail.height]).toEqual([100, 50]);
  });

  it.each([
    ['PNG', makePng, 'image/png', 'png'],
    ['WebP', makeWebp, 'image/webp', 'webp'],
  ] as const)('accepts a %s image', async (_name, make, contentType, extension) => {
    const image = await uploads.acceptImage(dataUrlOf(await make(64, 48), contentType));
    expect(image).toMatchObject({ kind: 'image', contentType, extension, width: 64, height: 48 });
    expect((await fileTypeFromBuffer(image.bytes))?.mime).toBe(contentType);
  });

  it('decides the type by the bytes, not by the claimed type', async () => {
    const image = await uploads.acceptImage(dataUrlOf(await makePng(), 'image/jpeg'));
    expect(image.contentType).toBe('image/png');
  });

  it('accepts an animated PNG as a PNG', async () => {
    const animated = markAnimated(await makePng());
    expect((await fileTypeFromBuffer(animated))?.mime).toBe('image/apng');
    const image = await uploads.acceptImage(dataUrlOf(animated, 'image/png'));
    expect(image.contentType).toBe('image/png');
  });

  it.each([
    ['an SVG image', () => svgImage, 'image/svg+xml'],
    ['an SVG image claimed as PNG', () => svgImage, 'image/png'],
    ['an HTML page claimed as PNG', () => htmlPage, 'image/png'],
    ['a PDF claimed as PNG', () => makePdf(), 'image/png'],
    ['a GIF image', makeGif, 'image/gif'],
    ['an AVIF image (HEIF family, not accepted)', makeAvif, 'image/avif'],
    ['plain text', () => Buffer.from('just some text'), 'image/png'],
  ])('refuses %s with 415 naming what is accepted', async (_name, make, claimed) => {
    const error = await failureOf(uploads.acceptImage(dataUrlOf(await make(), claimed)));
    expect(error).toBeInstanceOf(UnsupportedMediaType);
    expect(error.status).toBe(415);
    expect(error.detail).toBe(unsupportedImageMessage);
  });

  it('refuses bytes that only start like a PNG with 415', async () => {
    const png = await makePng();
    const broken = Buffer.concat([png.subarray(0, 40), Buffer.alloc(200, 7)]);
    const error = await failureOf(uploads.acceptImage(dataUrlOf(broken, 'image/png')));
    expect(error).toBeInstanceOf(UnsupportedMediaType);
    expect(error.detail).toBe(unreadableImageMessage);
  });

  it('accepts an image of exactly 5 MB', async () => {
    const png = padPng(await makePng(), imageMaxBytes);
    expect(png.length).toBe(5 * 1024 * 1024);
    const image = await uploads.acceptImage(dataUrlOf(png, 'image/png'));
    expect(image.contentType).toBe('image/png');
  });

  it('refuses an image one byte over 5 MB with 413 and the product message', async () => {
    const png = padPng(await makePng(), imageMaxBytes + 1);
    const error = await failureOf(uploads.acceptImage(dataUrlOf(png, 'image/png')));
    expect(error).toBeInstanceOf(PayloadTooLarge);
    expect(error.status).toBe(413);
    expect(error.detail).toBe('File size exceeds 5 MB. Please upload smaller file');
  });

  it('refuses an oversized link by its length, before decoding it', async () => {
    // Not even base64: a decoder would call it malformed, the size check comes first.
    const link = `data:image/png;base64,${'!'.repeat(Math.ceil((imageMaxBytes + 1) / 3) * 4)}`;
    const error = await failureOf(uploads.acceptImage(link));
    expect(error).toBeInstanceOf(PayloadTooLarge);
  });

  it('refuses an image of more pixels than allowed, however small the file', async () => {
    const strict = new UploadAcceptance({ maxImagePixels: 2_000_000 });
    const error = await failureOf(
      strict.acceptImage(dataUrlOf(await makePng(2000, 1001), 'image/png')),
    );
    expect(error).toBeInstanceOf(PayloadTooLarge);
    expect(error.detail).toBe(
      'The image is too large. Please upload an image of at most 2 megapixels.',
    );
    await expect(
      strict.acceptImage(dataUrlOf(await makePng(2000, 1000), 'image/png')),
    ).resolves.toMatchObject({
      width: 2000,
    });
  });

  it.each([
    ['no data scheme', 'image/png;base64,iVBORw0KGgo='],
    ['no comma', 'data:image/png;base64'],
    ['a percent-encoded payload', 'data:image/png,%89PNG'],
    ['characters outside base64', 'data:image/png;base64,iVBO$w0K'],
    ['whitespace inside the payload', 'data:image/png;base64,iVBO Rw0K'],
    ['a truncated payload', 'data:image/png;base64,iVBORw0KG'],
    ['padding in the middle', 'data:image/png;base64,iV==Rw0K'],
    ['an empty payload', 'data:image/png;base64,'],
    ['an overlong header', `data:image/png;${'x'.repeat(300)};base64,iVBORw0K`],
    ['an empty string', ''],
  ])('refuses a link with %s as malformed (400)', async (_case, link) => {
    const error = await failureOf(uploads.acceptImage(link));
    expect(error).toBeInstanceOf(BadRequest);
    expect(error.status).toBe(400);
    expect(error.detail).toBe(malformedUploadMessage);
  });

  it('reads the header case-insensitively and ignores its parameters', async () => {
    const png = await makePng();
    const link = `DATA:image/png;name=x-ray.png;BASE64,${png.toString('base64')}`;
    await expect(uploads.acceptImage(link)).resolves.toMatchObject({ contentType: 'image/png' });
  });
});

describe('acceptMedicalFile', () => {
  it('keeps a PDF byte for byte', async () => {
    const pdf = makePdf();
    const file = await uploads.acceptMedicalFile(
      dataUrlOf(pdf, 'application/pdf'),
      'Insurance card.pdf',
    );
    expect(file).toMatchObject({
      kind: 'pdf',
      contentType: 'application/pdf',
      extension: 'pdf',
      fileName: 'Insurance card.pdf',
      size: pdf.length,
      sha256: sha256(pdf),
    });
    expect(file.bytes.equals(pdf)).toBe(true);
  });

  it('accepts a PDF named and claimed as a PNG as the PDF it is', async () => {
    const file = await uploads.acceptMedicalFile(dataUrlOf(makePdf(), 'image/png'), 'scan.png');
    expect(file).toMatchObject({
      kind: 'pdf',
      contentType: 'application/pdf',
      fileName: 'scan.pdf',
    });
  });

  it('treats an image like a photo: metadata gone, upright, with a thumbnail', async () => {
    const file = await uploads.acceptMedicalFile(
      dataUrlOf(await makePhoneJpeg(80, 40), 'image/jpeg'),
      'receipt.JPEG',
    );
    if (file.kind !== 'image') throw new Error('expected an image');
    expect(file.fileName).toBe('receipt.JPEG');
    expect((await sharp(file.bytes).metadata()).exif).toBeUndefined();
    expect([file.width, file.height]).toEqual([40, 80]);
    expect(file.thumbnail.contentType).toBe('image/webp');
  });

  it.each([
    ['an HTML page renamed .png', htmlPage, 'image/png', 'page.png'],
    ['an SVG image', svgImage, 'image/svg+xml', 'chart.svg'],
    ['plain text renamed .pdf', Buffer.from('not a pdf'), 'application/pdf', 'x.pdf'],
  ])('refuses %s with 415 naming what is accepted', async (_name, bytes, claimed, fileName) => {
    const error = await failureOf(uploads.acceptMedicalFile(dataUrlOf(bytes, claimed), fileName));
    expect(error).toBeInstanceOf(UnsupportedMediaType);
    expect(error.detail).toBe(unsupportedMedicalFileMessage);
  });

  it('accepts a PDF of exactly 10 MB and refuses one byte more with 413', async () => {
    const largest = makePdf(pdfMaxBytes);
    expect(largest.length).toBe(10 * 1024 * 1024);
    await expect(
      uploads.acceptMedicalFile(dataUrlOf(largest, 'application/pdf'), 'large.pdf'),
    ).resolves.toMatchObject({ kind: 'pdf', size: pdfMaxBytes });

    const error = await failureOf(
      uploads.acceptMedicalFile(
        dataUrlOf(makePdf(pdfMaxBytes + 1), 'application/pdf'),
        'large.pdf',
      ),
    );
    expect(error).toBeInstanceOf(PayloadTooLarge);
    expect(error.detail).toBe(pdfTooLargeMessage);
  });

  it('holds images to 5 MB even where PDFs may be larger', async () => {
    const png = await makePng();
    await expect(
      uploads.acceptMedicalFile(dataUrlOf(padPng(png, imageMaxBytes), 'image/png'), 'x.png'),
    ).resolves.toMatchObject({ kind: 'image' });
    const error = await failureOf(
      uploads.acceptMedicalFile(dataUrlOf(padPng(png, imageMaxBytes + 1), 'image/png'), 'x.png'),
    );
    expect(error).toBeInstanceOf(PayloadTooLarge);
    expect(error.detail).toBe(imageTooLargeMessage);
  });

  it('refuses a malformed link with 400', async () => {
    const error = await failureOf(
      uploads.acceptMedicalFile('data:application/pdf;base64,%%%', 'a.pdf'),
    );
    expect(error).toBeInstanceOf(BadRequest);
  });
});

describe('medicalFileName', () => {
  it.each<[string, FileExtension, string]>([
    ['scan.pdf', 'pdf', 'scan.pdf'],
    ['Scan.PDF', 'pdf', 'Scan.PDF'],
    ['photo.jpeg', 'jpg', 'photo.jpeg'],
    ['scan.png', 'pdf', 'scan.pdf'],
    ['report', 'pdf', 'report.pdf'],
    ['Report v1.2', 'pdf', 'Report v1.2.pdf'],
    ['archive.tar.gz', 'pdf', 'archive.tar.pdf'],
    ['C:\\Users\\me\\Claim.pdf', 'pdf', 'Claim.pdf'],
    ['../../etc/passwd', 'pdf', 'passwd.pdf'],
    ['.hidden.pdf', 'pdf', 'hidden.pdf'],
    ['', 'png', 'file.png'],
    ['   ', 'png', 'file.png'],
    ['.pdf', 'pdf', 'pdf.pdf'],
    ['line\nbreak\u0000.pdf', 'pdf', 'linebreak.pdf'],
    ['invoice\u202Efdp.exe', 'pdf', 'invoicefdp.pdf'],
    ['lone\ud800surrogate.png', 'png', 'lonesurrogate.png'],
    ['Röntgen 歯 🦷.webp', 'webp', 'Röntgen 歯 🦷.webp'],
  ])('names %j with extension %s as %j', (given, extension, expected) => {
    expect(medicalFileName(given, extension)).toBe(expected);
  });

  it('shortens a very long name to 200 characters before the extension', () => {
    const name = medicalFileName(`${'a'.repeat(300)}.pdf`, 'pdf');
    expect(name).toBe(`${'a'.repeat(200)}.pdf`);
  });
});

describe('imported files (docs/decisions/data-import.md#files)', () => {
  it('keeps an image as this app stores it byte for byte, with its thumbnail', async () => {
    const stored = (await uploads.acceptImage(dataUrlOf(await makePhoneJpeg(), 'image/jpeg')))
      .bytes;
    const imported = await uploads.acceptImportedPhoto(stored);
    expect(imported.bytes.equals(stored)).toBe(true);
    expect(imported.sha256).toBe(sha256(stored));
    expect([imported.width, imported.height]).toEqual([40, 80]);
    expect(imported.thumbnail.contentType).toBe('image/webp');
    const file = await uploads.acceptImportedMedicalFile(stored, 'scan.jpg');
    expect(file.bytes.equals(stored)).toBe(true);
  });

  it('re-encodes an image that carries metadata or a turn, as an upload of it would be', async () => {
    const phone = await makePhoneJpeg(80, 40);
    const imported = await uploads.acceptImportedPhoto(phone);
    expect(imported.bytes.equals(phone)).toBe(false);
    for (const planted of Object.values(plantedMetadata)) {
      expect(imported.bytes.includes(planted)).toBe(false);
    }
    expect([imported.width, imported.height]).toEqual([40, 80]);
    const file = await uploads.acceptImportedMedicalFile(phone, 'scan.jpg');
    expect(file.bytes.includes(plantedMetadata.datum)).toBe(false);
  });

  it('refuses what an upload refuses: a type it does not accept, a file over the limit', async () => {
    await expect(uploads.acceptImportedPhoto(Buffer.from('%PDF-1.4\n%%EOF\n'))).rejects.toThrow(
      UnsupportedMediaType,
    );
    await expect(
      uploads.acceptImportedMedicalFile(Buffer.alloc(11 * 1024 * 1024), 'big.pdf'),
    ).rejects.toThrow(PayloadTooLarge);
  });
});
