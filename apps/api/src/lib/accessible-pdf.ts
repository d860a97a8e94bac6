import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pipeline } from 'node:stream/promises';
import { dirname, join } from 'node:path';
import PDFDocument from 'pdfkit';

/** Paper a member prints on: Letter in the countries that use it, A4 everywhere else. */
export type PaperSize = 'A4' | 'LETTER';

const letterRegions = new Set(['US', 'CA', 'MX', 'PH', 'CL', 'CO', 'VE', 'PR', 'GT', 'CR', 'PA']);

/** The paper of a BCP 47 locale's region ('en-US' → Letter, 'en-GB' or 'fr' → A4). */
export function paperSizeFor(locale: string): PaperSize {
  let region: string | undefined;
  try {
    region = new Intl.Locale(locale).maximize().region;
  } catch {
    region = undefined;
  }
  return region !== undefined && letterRegions.has(region) ? 'LETTER' : 'A4';
}

// Embedded fonts: PDF/UA requires every font in the file, and DejaVu covers the accents and
// quotation marks of names and SPEC's texts that the 14 standard fonts' encoding does not.
const fontDirectory = join(
  dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')),
  'ttf',
);
const fonts = {
  regular: join(fontDirectory, 'DejaVuSans.ttf'),
  bold: join(fontDirectory, 'DejaVuSans-Bold.ttf'),
};

const margin = 56;
const headingSizes = { 1: 20, 2: 15, 3: 12.5 } as const;
const bodySize = 11;
/** What a file-backed document may hold in memory before its writer waits for the disk. */
const maxBufferedBytes = 8 * 1024 * 1024;
/** Tallest an image is drawn, so a figure and its heading share a page. */
const maxFigureHeight = 380;

export interface AccessiblePdfOptions {
  title: string;
  /** BCP 47 language of the text, e.g. 'en-US'. */
  lang: string;
  paper: PaperSize;
}

/** A box drawn over a figure, in the image's own pixels. */
export interface FigureBox {
  box: readonly [number, number, number, number];
  colour: string;
}

type Structure = ReturnType<PDFKit.PDFDocument['struct']>;
/** @types/pdfkit 0.17 predates two things pdfkit 0.20 has: the PDF/UA subset and `openImage`,
 *  which gives an image's size before it is placed (`image` takes the opened image as a source). */
type Document = PDFKit.PDFDocument & {
  openImage(source: Buffer): PDFKit.Mixins.ImageSrc & { width: number; height: number };
};
const pdfUa = 'PDF/UA' as PDFKit.Mixins.PDFSubsets;

/**
 * A tagged PDF (PDF/UA where pdfkit allows) written in reading order: headings, paragraphs, lists
 * and figures with alternative text, each in the structure tree, text selectable, fonts
 * embedded. AccessiblePdf keeps the bytes in memory; AccessiblePdfFile writes them to a file as
 * each page ends, for documents of many images.
 */
export abstract class TaggedPdf {
  protected readonly doc: Document;
  private readonly root: Structure;

  constructor({ title, lang, paper }: AccessiblePdfOptions) {
    this.doc = new PDFDocument({
      size: paper,
      margin,
      pdfVersion: '1.7',
      subset: pdfUa,
      tagged: true,
      displayTitle: true,
      lang,
      info: { Title: title },
    }) as Document;
    this.doc.registerFont('regular', fonts.regular);
    this.doc.registerFont('bold', fonts.bold);
    this.doc.font('regular').fontSize(bodySize);
    this.root = this.doc.struct('Document');
    this.doc.addStructure(this.root);
  }

  private get width(): number {
    return this.doc.page.width - 2 * margin;
  }

  /** Starts a new page unless `height` points still fit on this one. */
  private keepTogether(height: number): void {
    if (this.doc.y + height > this.doc.page.height - margin) this.doc.addPage();
  }

  private block(type: string, draw: () => void): void {
    const element = this.doc.struct(type);
    this.root.add(element);
    element.add(this.doc.markStructureContent(type));
    draw();
    this.doc.endMarkedContent();
    element.end();
  }

  heading(text: string, level: 1 | 2 | 3): this {
    const size = headingSizes[level];
    this.keepTogether(size * 4);
    if (level > 1 && this.doc.y > margin) this.doc.moveDown(0.6);
    this.block(`H${String(level)}`, () => {
      // The trailing space keeps words apart when the text is read back or spoken.
      this.doc.font('bold').fontSize(size).text(`${text} `, { width: this.width });
    });
    this.doc.font('regular').fontSize(bodySize).moveDown(0.3);
    return this;
  }

  paragraph(text: string): this {
    this.block('P', () => {
      this.doc.text(`${text} `, { width: this.width });
    });
    this.doc.moveDown(0.4);
    return this;
  }

  /** A bulleted list; the bullets are labels in the structure, the texts its bodies. */
  list(items: readonly string[]): this {
    if (items.length === 0) return this;
    const list = this.doc.struct('L');
    this.root.add(list);
    for (const item of items) {
      const entry = this.doc.struct('LI');
      list.add(entry);
      const label = this.doc.struct('Lbl');
      entry.add(label);
      label.add(this.doc.markStructureContent('Lbl'));
      const y = this.doc.y;
      this.doc.text('• ', margin, y, { width: 14, lineBreak: false });
      label.end();
      const body = this.doc.struct('LBody');
      entry.add(body);
      body.add(this.doc.markStructureContent('LBody'));
      this.doc.text(`${item} `, margin + 14, y, { width: this.width - 14 });
      this.doc.endMarkedContent();
      body.end();
      entry.end();
      this.doc.x = margin;
    }
    list.end();
    this.doc.moveDown(0.4);
    return this;
  }

  /**
   * An image (JPEG or PNG, the stored copy) scaled to the text width and at most
   * `maxFigureHeight` tall, with its alternative text and any boxes drawn over it; a `title` is a
   * third-level heading kept on the image's page.
   */
  figure(
    image: Buffer,
    { alt, title, boxes = [] }: { alt: string; title?: string; boxes?: readonly FigureBox[] },
  ): this {
    const opened = this.doc.openImage(image);
    const scale = Math.min(this.width / opened.width, maxFigureHeight / opened.height, 1);
    const width = opened.width * scale;
    const height = opened.height * scale;
    this.keepTogether(height + 8 + (title === undefined ? 0 : headingSizes[3] * 3));
    if (title !== undefined) this.heading(title, 3);
    const x = margin;
    const y = this.doc.y;
    const figure = this.doc.struct('Figure', { alt });
    this.root.add(figure);
    figure.add(this.doc.markStructureContent('Figure'));
    this.doc.image(opened, x, y, { width, height });
    for (const { box, colour } of boxes) {
      const [x1, y1, x2, y2] = box;
      this.doc
        .save()
        .lineWidth(1.5)
        .strokeColor(colour)
        .rect(x + x1 * scale, y + y1 * scale, (x2 - x1) * scale, (y2 - y1) * scale)
        .stroke()
        .restore();
    }
    this.doc.endMarkedContent();
    figure.end();
    this.doc.x = margin;
    this.doc.y = y + height + 8;
    return this;
  }

  /** Resolves once what was written so far has left memory (a file's pages on disk); a long
   *  document waits on it between images. */
  drained(): Promise<void> {
    return Promise.resolve();
  }

  /** Ends the structure tree and the document. */
  protected end(): void {
    this.root.end();
    this.doc.end();
  }
}

/** A tagged PDF kept in memory: a receipt, a test's document. */
export class AccessiblePdf extends TaggedPdf {
  private readonly bytes: Promise<Buffer>;

  constructor(options: AccessiblePdfOptions) {
    super(options);
    this.bytes = new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      this.doc.on('data', (chunk: Buffer) => chunks.push(chunk));
      this.doc.on('end', () => {
        resolve(Buffer.concat(chunks));
      });
      this.doc.on('error', reject);
    });
  }

  /** Ends the document and answers its bytes. */
  finish(): Promise<Buffer> {
    this.end();
    return this.bytes;
  }
}

/** A tagged PDF written to `path` as its pages end, so that memory holds about one page's
 *  images however long the document grows (a report of a hundred photos). */
export class AccessiblePdfFile extends TaggedPdf {
  private readonly output: WriteStream;
  private readonly written: Promise<void>;

  constructor(
    options: AccessiblePdfOptions,
    private readonly path: string,
  ) {
    super(options);
    this.output = createWriteStream(path, { mode: 0o600 });
    this.written = pipeline(this.doc, this.output);
    // Awaited in finish(); until then a failed write must not be an unhandled rejection.
    this.written.catch(() => undefined);
  }

  /** pdfkit does not wait for its reader: pages pile up in memory while the disk is slower than
   *  the images are embedded, unless the writer waits for the file to drain. */
  override async drained(): Promise<void> {
    while (this.doc.readableLength > maxBufferedBytes) await once(this.output, 'drain');
  }

  /** Ends the document once the file is written; answers its size in bytes. */
  async finish(): Promise<number> {
    this.end();
    await this.written;
    return (await stat(this.path)).size;
  }
}
