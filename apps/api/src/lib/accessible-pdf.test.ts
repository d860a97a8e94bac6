import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readPdf } from '#api-test/support/pdf-reader';
import { AccessiblePdf, AccessiblePdfFile, paperSizeFor } from './accessible-pdf';

const image = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#c8a070' } })
    .jpeg()
    .toBuffer();

describe('AccessiblePdf', () => {
  it('writes a tagged document whose headings, text, list and figures read back in order', async () => {
    const pdf = new AccessiblePdf({ title: 'Treatment history', lang: 'en-US', paper: 'LETTER' })
      .heading('Treatment history', 1)
      .paragraph('Ana Lucía Pérez — 1 Jan 2026 to 31 Dec 2026')
      .heading('Dental AI results', 2)
      .figure(await image(1200, 600), {
        alt: 'Panoramic X-ray with 2 marked areas',
        boxes: [
          { box: [100, 100, 300, 250], colour: '#d32f2f' },
          { box: [700, 200, 900, 400], colour: '#f57c00' },
        ],
      })
      .list(['Caries, likely', 'Caries, possible']);
    const read = await readPdf(await pdf.finish());

    expect(read.title).toBe('Treatment history');
    expect(read.language).toBe('en-US');
    expect(read.marked).toBe(true);
    expect(read.size).toEqual([612, 792]);
    expect(read.text[0]).toContain('Ana Lucía Pérez — 1 Jan 2026 to 31 Dec 2026');
    expect(read.text[0]).toContain('Caries, likely');
    expect(read.images).toEqual([1]);
    const roles = read.structure[0]?.map(({ role }) => role);
    expect(roles?.filter((role) => !role.startsWith('L'))).toEqual([
      'Document',
      'H1',
      'P',
      'H2',
      'Figure',
    ]);
    expect(roles?.filter((role) => role === 'LI')).toHaveLength(2);
    expect(read.structure[0]?.find(({ role }) => role === 'Figure')?.alt).toBe(
      'Panoramic X-ray with 2 marked areas',
    );
  });

  it('moves a figure that does not fit, with its title, to the next page', async () => {
    const pdf = new AccessiblePdf({ title: 'Photos', lang: 'en-GB', paper: 'A4' });
    for (let index = 1; index <= 3; index += 1) {
      const title = `Photo ${String(index)}`;
      pdf.figure(await image(800, 1000), { alt: `${title}, upper teeth`, title });
    }
    const read = await readPdf(await pdf.finish());

    expect(read.size.map(Math.round)).toEqual([595, 842]);
    expect(read.pages).toBe(3);
    expect(read.images).toEqual([1, 1, 1]);
    expect(read.text).toEqual(['Photo 1', 'Photo 2', 'Photo 3']);
  });
});

describe('AccessiblePdfFile', () => {
  it('writes the same tagged document to a file and answers its size', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'accessible-pdf-'));
    try {
      const file = path.join(folder, 'report.pdf');
      const pdf = new AccessiblePdfFile({ title: 'Photos', lang: 'en-GB', paper: 'A4' }, file);
      pdf.heading('Photos', 1).figure(await image(800, 600), { alt: 'Upper teeth', title: 'One' });
      const size = await pdf.finish();
      const bytes = await readFile(file);
      expect(size).toBe(bytes.length);
      const read = await readPdf(bytes);
      expect(read.title).toBe('Photos');
      expect(read.marked).toBe(true);
      expect(read.text).toEqual(['Photos One']);
      expect(read.images).toEqual([1]);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

describe('paperSizeFor', () => {
  it.each([
    ['en-US', 'LETTER'],
    ['es-MX', 'LETTER'],
    ['fr-CA', 'LETTER'],
    ['en-GB', 'A4'],
    ['de', 'A4'],
    ['not a locale', 'A4'],
  ])('%s prints on %s', (locale, paper) => {
    expect(paperSizeFor(locale)).toBe(paper);
  });
});
