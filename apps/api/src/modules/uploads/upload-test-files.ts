import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/** Real files built for upload tests: images with sharp, PDFs and PNG chunks byte by byte. */

export function dataUrlOf(bytes: Uint8Array, claimedType: string): string {
  return `data:${claimedType};base64,${Buffer.from(bytes).toString('base64')}`;
}

function canvas(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 90, b: 160 } } });
}

export function makePng(width = 64, height = 48): Promise<Buffer> {
  return canvas(width, height).png().toBuffer();
}

export function makeWebp(width = 64, height = 48): Promise<Buffer> {
  return canvas(width, height).webp().toBuffer();
}

export function makeGif(): Promise<Buffer> {
  return canvas(16, 16).gif().toBuffer();
}

export function makeAvif(): Promise<Buffer> {
  return canvas(16, 16).avif().toBuffer();
}

/** Strings planted in the metadata, to prove that none of it survives. */
export const plantedMetadata = {
  camera: 'DentalTestCam',
  datum: 'WGS-84',
  xmpLatitude: '40,26.767N',
} as const;

/**
 * A JPEG as a phone writes it: GPS position and camera in EXIF, a location in XMP, and stored
 * sideways with EXIF orientation 6 (display rotated 90° clockwise).
 */
export function makePhoneJpeg(width = 80, height = 40): Promise<Buffer> {
  return canvas(width, height)
    .withExif({
      IFD0: { Make: plantedMetadata.camera, Model: 'Model 1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '40/1 26/1 4600/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '79/1 58/1 5600/100',
        GPSMapDatum: plantedMetadata.datum,
      },
    })
    .withMetadata({ orientation: 6 })
    .withXmp(
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
        `<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="${plantedMetadata.xmpLatitude}"/>` +
        '</rdf:RDF></x:xmpmeta>',
    )
    .jpeg()
    .toBuffer();
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const typeAndData = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  typeAndData.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(typeAndData), 8 + data.length);
  return chunk;
}

const pngSignatureLength = 8;
const ihdrChunkLength = 25;
const iendChunkLength = 12;
const chunkOverhead = 12;
const maxPaddingChunkData = 1024 * 1024;

/**
 * The PNG grown to exactly `totalBytes` with private ancillary chunks ('paDd'), which decoders
 * skip: a valid image of a chosen file size.
 */
export function padPng(png: Buffer, totalBytes: number): Buffer {
  let missing = totalBytes - png.length;
  const chunks: Buffer[] = [];
  while (missing > 0) {
    if (missing < chunkOverhead) throw new Error(`Cannot pad a PNG by ${missing} bytes`);
    // Leave either nothing or room for a whole further chunk.
    let dataLength = Math.min(missing - chunkOverhead, maxPaddingChunkData);
    const rest = missing - chunkOverhead - dataLength;
    if (rest > 0 && rest < chunkOverhead) dataLength -= chunkOverhead;
    chunks.push(pngChunk('paDd', Buffer.alloc(dataLength, 0x20)));
    missing -= chunkOverhead + dataLength;
  }
  const iendAt = png.length - iendChunkLength;
  return Buffer.concat([png.subarray(0, iendAt), ...chunks, png.subarray(iendAt)]);
}

/** The PNG marked as animated (an acTL chunk before the image data), as file-type sees APNG. */
export function markAnimated(png: Buffer): Buffer {
  const acTL = Buffer.alloc(8);
  acTL.writeUInt32BE(1, 0); // frames
  acTL.writeUInt32BE(0, 4); // plays: forever
  const afterIhdr = pngSignatureLength + ihdrChunkLength;
  return Buffer.concat([
    png.subarray(0, afterIhdr),
    pngChunk('acTL', acTL),
    png.subarray(afterIhdr),
  ]);
}

function pdfWithComment(commentLength: number): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
  ];
  let body = `%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n%${' '.repeat(commentLength)}\n`;
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A real one-page PDF with a correct cross-reference table; `totalBytes` pads it exactly. */
export function makePdf(totalBytes?: number): Buffer {
  let pdf = pdfWithComment(0);
  if (totalBytes === undefined) return pdf;
  // The padding moves the offsets, whose digits can change the length: settle in a few rounds.
  let commentLength = totalBytes - pdf.length;
  for (let round = 0; round < 3 && pdf.length !== totalBytes; round += 1) {
    pdf = pdfWithComment(commentLength);
    commentLength += totalBytes - pdf.length;
  }
  if (pdf.length !== totalBytes) throw new Error(`Cannot build a PDF of ${totalBytes} bytes`);
  return pdf;
}

export const svgImage = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script>' +
    '<rect width="10" height="10"/></svg>',
);

export const htmlPage = Buffer.from(
  '<!doctype html><html><body><script>fetch("/api/account/")</script></body></html>',
);
