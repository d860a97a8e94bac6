import sharp from 'sharp';
import type { OralPhotoRow } from '../apps/api/src/db/schema';
import type { MemberRecord } from '../apps/api/src/modules/data-export/data-export.repository';

/** A phone photo's worth of JPEG (by default 2000 × 1500) of noise, which compresses as badly as
 *  a real one. */
export async function photoJpeg(seed: number, width = 2000, height = 1500): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let state = seed + 1;
  for (let index = 0; index < pixels.length; index++) {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    pixels[index] = state >> 23;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

function photo(index: number, jpeg: Buffer): OralPhotoRow {
  const at = new Date(Date.UTC(2026, 0, 1 + index));
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    userId: '00000000-0000-4000-8000-000000000000',
    shootDate: at.toISOString().slice(0, 10),
    photoType: index % 2 === 0 ? 'Photo' : 'X-ray',
    note: '',
    blobKey: `photo-${String(index % 4)}`,
    contentType: 'image/jpeg',
    sizeBytes: jpeg.length,
    thumbnailKey: `thumb-${String(index)}`,
    thumbnailSizeBytes: 0,
    originalKey: null,
    originalSizeBytes: null,
    teeth: [11 + (index % 8)],
    captureSetId: null,
    captureView: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** A member whose record is `count` photos, each one of `jpegs` in turn (keys `photo-{i}`). */
export function benchRecord(count: number, jpegs: readonly Buffer[]): MemberRecord {
  return {
    member: {
      id: '00000000-0000-4000-8000-000000000000',
      username: 'Bench Member',
      email: 'bench@example.com',
      phone: null,
      createdAt: new Date('2025-01-01T00:00:00Z'),
      givenName: null,
      familyName: null,
      birthDate: null,
      sex: null,
    },
    photos: Array.from({ length: count }, (_, index) =>
      photo(index, jpegs[index % jpegs.length] ?? Buffer.alloc(0)),
    ),
    records: [],
    appointments: [],
    dentalAiResults: [],
    consultations: [],
    threads: [],
    reviews: [],
  };
}
