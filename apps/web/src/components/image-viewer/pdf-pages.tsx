import { useEffect, useRef, useState } from 'react';
import { getDocument, GlobalWorkerOptions, type PDFPageProxy } from 'pdfjs-dist';
import classes from './image-viewer.module.css';

// The worker is bundled as our own script, so the CSP's script-src 'self' covers it.
GlobalWorkerOptions.workerPort ??= new Worker(
  new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url),
  { type: 'module' },
);

/** Pages drawn in the viewer; a longer document is read after downloading it. */
export const pdfPreviewMaxPages = 20;

// A canvas larger than this is refused by phone browsers (iOS stops at 16.7 million pixels) and
// costs 32 MB; a zoomed page is drawn up to it and stretched beyond.
const maxCanvasPixels = 8_000_000;

// Waits for the pinch or the scroll to settle before drawing the pages in view again.
const redrawDelayMs = 150;

type PdfState = { status: 'loading' } | { status: 'ready'; pages: number } | { status: 'failed' };

interface DrawnPage {
  page: PDFPageProxy;
  canvas: HTMLCanvasElement;
  /** The zoom and the width in CSS pixels the canvas holds pixels for. */
  zoom: number;
  width: number;
}

/**
 * A PDF drawn page by page into canvases with pdf.js (docs/decisions/image-viewer.md): the
 * browser's own viewer is not used because the file links forbid framing and headless browsers
 * have none. Loaded lazily, so pdf.js is fetched only when a PDF is opened. The viewer zooms the
 * slide; the pages in view are then drawn again at that zoom, so the text stays sharp, and only
 * they, so that a long document does not hold every page at full zoom in memory.
 */
export default function PdfPages({
  src,
  title,
  zoom,
}: {
  src: string;
  title: string;
  /** The viewer's zoom of this slide (1 when fitted). */
  zoom: number;
}) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const pagesRef = useRef<HTMLDivElement>(null);
  const drawnRef = useRef<DrawnPage[]>([]);
  const zoomRef = useRef(zoom);
  const [state, setState] = useState<PdfState>({ status: 'loading' });

  useEffect(() => {
    const container = pagesRef.current;
    if (container === null) return;
    // eval stays off: the CSP forbids it, and pdf.js then draws fonts without compiled paths.
    const task = getDocument({ url: src, isEvalSupported: false });
    let cancelled = false;
    // Read through a call: the page drawn meanwhile may belong to a document already closed.
    const stopped = () => cancelled;
    const draw = async () => {
      const pdf = await task.promise;
      const count = Math.min(pdf.numPages, pdfPreviewMaxPages);
      for (let number = 1; number <= count && !cancelled; number += 1) {
        const page = await pdf.getPage(number);
        const canvas = await drawPage(page, container.clientWidth, 1, (drawn) => {
          drawn.setAttribute('aria-label', `Page ${String(number)} of ${String(pdf.numPages)}`);
          container.append(drawn);
        });
        if (stopped()) return;
        drawnRef.current.push({ page, canvas, zoom: 1, width: container.clientWidth });
      }
      if (!cancelled) setState({ status: 'ready', pages: pdf.numPages });
    };
    draw().catch(() => {
      if (!cancelled) setState({ status: 'failed' });
    });
    return () => {
      cancelled = true;
      drawnRef.current = [];
      container.replaceChildren();
      void task.destroy();
    };
  }, [src]);

  useEffect(() => {
    zoomRef.current = zoom;
    const scroller = scrollerRef.current;
    const container = pagesRef.current;
    if (scroller === null || container === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let drawing = false;
    const redrawPagesInView = async () => {
      if (drawing) return;
      drawing = true;
      const view = scroller.getBoundingClientRect();
      for (const drawn of drawnRef.current) {
        const box = drawn.canvas.getBoundingClientRect();
        const inView = box.bottom > view.top && box.top < view.bottom;
        // Out of view, a page goes back to the fitted drawing, which frees its zoomed pixels.
        const wanted = inView ? zoomRef.current : 1;
        const width = container.clientWidth;
        if (drawn.zoom === wanted && drawn.width === width) continue;
        const canvas = await drawPage(drawn.page, width, wanted);
        canvas.setAttribute('aria-label', drawn.canvas.getAttribute('aria-label') ?? '');
        if (!drawn.canvas.isConnected) break;
        drawn.canvas.replaceWith(canvas);
        drawn.canvas = canvas;
        drawn.zoom = wanted;
        drawn.width = width;
      }
      drawing = false;
    };
    const redrawSoon = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        redrawPagesInView().catch(() => {
          // The fitted drawing stays; a page that cannot be drawn sharper is still readable.
          drawing = false;
        });
      }, redrawDelayMs);
    };
    // A turned phone or a resized window changes the width the pages are drawn for.
    const resizing = new ResizeObserver(redrawSoon);
    resizing.observe(container);
    scroller.addEventListener('scroll', redrawSoon, { passive: true });
    return () => {
      clearTimeout(timer);
      resizing.disconnect();
      scroller.removeEventListener('scroll', redrawSoon);
    };
  }, [zoom, state.status]);

  return (
    <div ref={scrollerRef} className={classes.pdf} aria-label={title} role="document" tabIndex={0}>
      {state.status === 'loading' && (
        <p className={classes.pdfNote} role="status">
          Opening the document…
        </p>
      )}
      {state.status === 'failed' && (
        <p className={classes.pdfNote} role="alert">
          This document could not be shown. Download it to read it.
        </p>
      )}
      <div ref={pagesRef} className={classes.pdfPages} />
      {state.status === 'ready' && state.pages > pdfPreviewMaxPages && (
        <p className={classes.pdfNote}>
          The first {pdfPreviewMaxPages} of {state.pages} pages are shown. Download the document to
          read it all.
        </p>
      )}
    </div>
  );
}

/** `page` drawn as wide as `width` CSS pixels, with the pixels that `zoom` on this screen needs. */
async function drawPage(
  page: PDFPageProxy,
  width: number,
  zoom: number,
  place?: (canvas: HTMLCanvasElement) => void,
) {
  const unscaled = page.getViewport({ scale: 1 });
  const fit = width / unscaled.width;
  const wanted = fit * window.devicePixelRatio * zoom;
  const largest = Math.sqrt(maxCanvasPixels / (unscaled.width * unscaled.height));
  const viewport = page.getViewport({ scale: Math.min(wanted, largest) });
  const canvas = document.createElement('canvas');
  canvas.width = Math.floor(viewport.width);
  canvas.height = Math.floor(viewport.height);
  canvas.className = classes.pdfPage ?? '';
  canvas.setAttribute('role', 'img');
  place?.(canvas);
  await page.render({ canvas, viewport }).promise;
  return canvas;
}
