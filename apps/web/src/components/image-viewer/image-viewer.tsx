import { lazy, Suspense } from 'react';
import Lightbox, { type GenericSlide, type Slide } from 'yet-another-react-lightbox';
import Captions from 'yet-another-react-lightbox/plugins/captions';
import Counter from 'yet-another-react-lightbox/plugins/counter';
import Download from 'yet-another-react-lightbox/plugins/download';
import Fullscreen from 'yet-another-react-lightbox/plugins/fullscreen';
import Zoom from 'yet-another-react-lightbox/plugins/zoom';
import 'yet-another-react-lightbox/styles.css';
import 'yet-another-react-lightbox/plugins/captions.css';
import 'yet-another-react-lightbox/plugins/counter.css';
import type { DetectionColour } from '@dental/contracts';
import { DetectionImage, type DrawnBox } from '../detection-image';
import classes from './image-viewer.module.css';

const PdfPages = lazy(() => import('./pdf-pages'));

declare module 'yet-another-react-lightbox' {
  interface PdfSlide extends GenericSlide {
    type: 'pdf';
    src: string;
    /** The document's accessible name. */
    label: string;
  }
  /** An image with detection boxes drawn over it, zoomed as one (a Dental AI result). */
  interface DetectionSlide extends GenericSlide {
    type: 'detection';
    src: string;
    alt: string;
    width: number;
    height: number;
    boxes: readonly DrawnBox[];
    colours: ReadonlyMap<string, DetectionColour>;
  }
  interface SlideTypes {
    pdf: PdfSlide;
    detection: DetectionSlide;
  }
}

/** One picture or document the viewer shows; it is downloaded under the name its link gives. */
export type ViewerItem = {
  /** The original's signed link. */
  src: string;
  /** What the item is, read out and shown under it (e.g. 'X-ray of 2026-11-20'). */
  title: string;
} & (
  | { kind: 'image' | 'pdf' }
  | {
      /** An image with its boxes (docs/product/dental-ai.md#result), in its pixel size. */
      kind: 'detection';
      width: number;
      height: number;
      boxes: readonly DrawnBox[];
      colours: ReadonlyMap<string, DetectionColour>;
    }
);

/** A detection slide's zoom limit: it has no pixel ratio the plugin can read, as images do. */
const detectionMaxZoom = 8;

/** The most of `rect` an image of this size fills, its shape kept. */
function fitted(size: { width: number; height: number }, rect: { width: number; height: number }) {
  const scale = Math.min(rect.width / size.width, rect.height / size.height);
  return { width: size.width * scale, height: size.height * scale };
}

function slideOf(item: ViewerItem) {
  switch (item.kind) {
    case 'pdf':
      return { type: 'pdf' as const, src: item.src, label: item.title };
    case 'detection':
      return {
        type: 'detection' as const,
        src: item.src,
        alt: item.title,
        width: item.width,
        height: item.height,
        boxes: item.boxes,
        colours: item.colours,
      };
    case 'image':
      return { type: 'image' as const, src: item.src, alt: item.title };
  }
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
 * zoom and pan by mouse wheel, drag, pinch or keyboard (+, -, arrow keys while zoomed), of
 * pictures and of Dental AI results with their boxes alike,
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
        ...slideOf(item),
        title: item.title,
        download: item.src,
      }))}
      plugins={[Zoom, Download, Fullscreen, Counter, Captions]}
      carousel={{ finite: true }}
      controller={{ closeOnBackdropClick: true }}
      zoom={{
        maxZoomPixelRatio: 4,
        supports: ['pdf', 'detection'],
        // A PDF page's 11 pt text is then about 36 px high on a phone.
        maxZoom: (slide: Slide) => (slide.type === 'pdf' ? 4 : detectionMaxZoom),
        // A mouse wheel scrolls a PDF's pages; on a picture it zooms.
        scrollToZoom: items[index ?? 0]?.kind !== 'pdf',
      }}
      captions={{ descriptionTextAlign: 'center' }}
      className={classes.viewer}
      render={{
        slide: ({ slide, rect, zoom }) => {
          if (slide.type === 'pdf') {
            return (
              <Suspense fallback={null}>
                <PdfPages src={slide.src} title={slide.label} zoom={zoom ?? 1} />
              </Suspense>
            );
          }
          if (slide.type === 'detection') {
            return (
              <DetectionImage
                src={slide.src}
                alt={slide.alt}
                width={slide.width}
                height={slide.height}
                boxes={slide.boxes}
                colours={slide.colours}
                displaySize={fitted(slide, rect)}
                zoom={zoom}
              />
            );
          }
          return undefined;
        },
      }}
    />
  );
}
