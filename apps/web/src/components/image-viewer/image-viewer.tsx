import { lazy, Suspense } from 'react';
import Lightbox, { type GenericSlide } from 'yet-another-react-lightbox';
import Captions from 'yet-another-react-lightbox/plugins/captions';
import Counter from 'yet-another-react-lightbox/plugins/counter';
import Download from 'yet-another-react-lightbox/plugins/download';
import Fullscreen from 'yet-another-react-lightbox/plugins/fullscreen';
import Zoom from 'yet-another-react-lightbox/plugins/zoom';
import 'yet-another-react-lightbox/styles.css';
import 'yet-another-react-lightbox/plugins/captions.css';
import 'yet-another-react-lightbox/plugins/counter.css';
import classes from './image-viewer.module.css';

const PdfPages = lazy(() => import('./pdf-pages'));

declare module 'yet-another-react-lightbox' {
  interface PdfSlide extends GenericSlide {
    type: 'pdf';
    src: string;
    /** The document's accessible name. */
    label: string;
  }
  interface SlideTypes {
    pdf: PdfSlide;
  }
}

/** One picture or document the viewer shows; it is downloaded under the name its link gives. */
export interface ViewerItem {
  kind: 'image' | 'pdf';
  /** The original's signed link. */
  src: string;
  /** What the item is, read out and shown under it (e.g. 'X-ray of 2026-11-20'). */
  title: string;
}

export interface ImageViewerProps {
  items: readonly ViewerItem[];
  /** The item shown; null while the viewer is closed. */
  index: number | null;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}

/**
 * The one full-screen viewer of photos, X-rays and record files (docs/decisions/image-viewer.md):
 * zoom and pan by mouse wheel, drag, pinch or keyboard (+, -, arrow keys while zoomed),
 * previous and next (arrow keys otherwise), download, and PDFs drawn in place. Only here are
 * originals fetched; lists show thumbnails.
 */
export function ImageViewer({ items, index, onIndexChange, onClose }: ImageViewerProps) {
  return (
    <Lightbox
      open={index !== null}
      index={index ?? 0}
      close={onClose}
      on={{
        view: ({ index: shown }) => {
          onIndexChange(shown);
        },
      }}
      slides={items.map((item) => ({
        ...(item.kind === 'pdf'
          ? { type: 'pdf' as const, src: item.src, label: item.title }
          : { type: 'image' as const, src: item.src, alt: item.title }),
        title: item.title,
        download: item.src,
      }))}
      plugins={[Zoom, Download, Fullscreen, Counter, Captions]}
      carousel={{ finite: true }}
      controller={{ closeOnBackdropClick: true }}
      zoom={{
        maxZoomPixelRatio: 4,
        supports: ['pdf'],
        // A PDF page's 11 pt text is then about 36 px high on a phone.
        maxZoom: 4,
        // A mouse wheel scrolls a PDF's pages; on a picture it zooms.
        scrollToZoom: items[index ?? 0]?.kind !== 'pdf',
      }}
      captions={{ descriptionTextAlign: 'center' }}
      className={classes.viewer}
      render={{
        slide: ({ slide, zoom }) =>
          slide.type === 'pdf' ? (
            <Suspense fallback={null}>
              <PdfPages src={slide.src} title={slide.label} zoom={zoom ?? 1} />
            </Suspense>
          ) : undefined,
      }}
    />
  );
}
