import { useEffect, useRef, useState } from 'react';
import { getDocument, GlobalWorkerOptions } from 'pdfjs-dist';
import classes from './image-viewer.module.css';

// The worker is bundled as our own script, so the CSP's script-src 'self' covers it.
GlobalWorkerOptions.workerPort ??= new Worker(
  new URL('pdfjs-dist/build/pdf.worker.min.mjs', import.meta.url),
  { type: 'module' },
);

/** Pages drawn in the viewer; a longer document is read after downloading it. */
export const pdfPreviewMaxPages = 20;

type PdfState = { status: 'loading' } | { status: 'ready'; pages: number } | { status: 'failed' };

/**
 * A PDF drawn page by page into canvases with pdf.js (docs/decisions/image-viewer.md): the
 * browser's own viewer is not used because the file links forbid framing and headless browsers
 * have none. Loaded lazily, so pdf.js is fetched only when a PDF is opened.
 */
export default function PdfPages({ src, title }: { src: string; title: string }) {
  const pagesRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<PdfState>({ status: 'loading' });

  useEffect(() => {
    const container = pagesRef.current;
    if (container === null) return;
    // eval stays off: the CSP forbids it, and pdf.js then draws fonts without compiled paths.
    const task = getDocument({ url: src, isEvalSupported: false });
    let cancelled = false;
    const draw = async () => {
      const pdf = await task.promise;
      const count = Math.min(pdf.numPages, pdfPreviewMaxPages);
      for (let number = 1; number <= count && !cancelled; number += 1) {
        const page = await pdf.getPage(number);
        const fit = container.clientWidth / page.getViewport({ scale: 1 }).width;
        const viewport = page.getViewport({ scale: fit * window.devicePixelRatio });
        const canvas = document.createElement('canvas');
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.className = classes.pdfPage ?? '';
        canvas.setAttribute('role', 'img');
        canvas.setAttribute('aria-label', `Page ${String(number)} of ${String(pdf.numPages)}`);
        container.append(canvas);
        await page.render({ canvas, viewport }).promise;
      }
      if (!cancelled) setState({ status: 'ready', pages: pdf.numPages });
    };
    draw().catch(() => {
      if (!cancelled) setState({ status: 'failed' });
    });
    return () => {
      cancelled = true;
      container.replaceChildren();
      void task.destroy();
    };
  }, [src]);

  return (
    <div className={classes.pdf} aria-label={title} role="document" tabIndex={0}>
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
