import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** What a test reads back from a generated PDF, as a reader or a screen reader would find it. */
export interface ReadPdf {
  pages: number;
  /** Each page's text in drawing order, runs joined by spaces. */
  text: string[];
  /** Images drawn on each page. */
  images: number[];
  title: string | undefined;
  language: string | undefined;
  marked: boolean;
  /** Each page's structure tree, flattened to the roles (and alternative texts) in order. */
  structure: { role: string; alt?: string }[][];
  /** The page size in points of the first page. */
  size: [number, number];
}

interface StructNode {
  role?: string;
  alt?: string;
  children?: StructNode[];
}

function flatten(node: StructNode | null, into: { role: string; alt?: string }[]): void {
  if (node === null) return;
  // pdf.js answers its own 'Root' above the document's structure.
  if (node.role !== undefined && node.role !== 'Root') {
    into.push(node.alt === undefined ? { role: node.role } : { role: node.role, alt: node.alt });
  }
  for (const child of node.children ?? []) flatten(child, into);
}

export async function readPdf(bytes: Uint8Array): Promise<ReadPdf> {
  const document = await getDocument({
    data: new Uint8Array(bytes),
    useSystemFonts: false,
    isEvalSupported: false,
  }).promise;
  try {
    const metadata = await document.getMetadata();
    const info = metadata.info as { Title?: string; Language?: string };
    const markInfo = await document.getMarkInfo();
    const text: string[] = [];
    const images: number[] = [];
    const structure: { role: string; alt?: string }[][] = [];
    let size: [number, number] = [0, 0];
    for (let number = 1; number <= document.numPages; number += 1) {
      const page = await document.getPage(number);
      if (number === 1) size = [page.view[2] ?? 0, page.view[3] ?? 0];
      const content = await page.getTextContent();
      text.push(
        content.items
          .map((item) => ('str' in item ? item.str : ''))
          .join(' ')
          .replace(/\s+/g, ' ')
          .trim(),
      );
      const operators = await page.getOperatorList();
      images.push(
        operators.fnArray.filter(
          (fn) => fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject,
        ).length,
      );
      const roles: { role: string; alt?: string }[] = [];
      flatten((await page.getStructTree()) as StructNode | null, roles);
      structure.push(roles);
    }
    return {
      pages: document.numPages,
      text,
      images,
      title: info.Title,
      language: info.Language,
      marked: markInfo?.Marked === true,
      structure,
      size,
    };
  } finally {
    await document.destroy();
  }
}
