import { useState } from 'react';
import type { DetectionBox, DetectionColour } from '@dental/contracts';
import classes from './detection-image.module.css';

/** A box to draw: its corners in the image's pixels, the label its colour is chosen by and, for a
 *  Dental AI result, how sure the model is of it. */
export type DrawnBox = Pick<DetectionBox, 'xmin' | 'ymin' | 'xmax' | 'ymax' | 'crop_prediction'> &
  Partial<Pick<DetectionBox, 'tier'>>;

export interface DetectionImageProps {
  src: string;
  alt: string;
  /** The image's own pixel size, the space the boxes are given in; when not known (a reviewed
   *  photo), the image's natural size once it has loaded. */
  width?: number | undefined;
  height?: number | undefined;
  boxes: readonly DrawnBox[];
  colours: ReadonlyMap<string, DetectionColour>;
  /** The size to show it at in CSS pixels (the full-screen viewer's slide); else it fits the
   *  page. */
  displaySize?: { width: number; height: number } | undefined;
  /** In the viewer: the zoom, which the tier words undo so that they keep their size and
   *  come apart as the image grows. On the page they show on a wide screen only, where the boxes
   *  are large enough for them. */
  zoom?: number | undefined;
}

/**
 * The image with its boxes drawn over it: the overlay's coordinate system is the image's pixels
 * and is stretched to whatever size the image is shown at, so the boxes stay on the teeth at any
 * screen width while their lines stay 3 px wide (docs/product/dental-ai.md#boxes-and-colours).
 * A box the model is only 'possible' about is dashed, and each box with a tier carries the
 * word at its corner (docs/decisions/dental-ai-in-the-record.md).
 * Shared by the Dental AI result, its full-screen view and a dentist's review
 * (docs/product/photo-reviews.md).
 */
export function DetectionImage({
  src,
  alt,
  width,
  height,
  boxes,
  colours,
  displaySize,
  zoom,
}: DetectionImageProps) {
  const [natural, setNatural] = useState<{ width: number; height: number } | undefined>();
  const size = width !== undefined && height !== undefined ? { width, height } : natural;
  return (
    <div className={classes.frame}>
      <img
        className={classes.image}
        style={displaySize && { ...displaySize, maxHeight: 'none', maxWidth: 'none' }}
        src={src}
        alt={alt}
        width={size?.width}
        height={size?.height}
        onLoad={(event) => {
          const { naturalWidth, naturalHeight } = event.currentTarget;
          if (naturalWidth > 0 && naturalHeight > 0) {
            setNatural({ width: naturalWidth, height: naturalHeight });
          }
        }}
      />
      {size !== undefined && (
        <svg
          className={classes.boxes}
          viewBox={`0 0 ${size.width} ${size.height}`}
          preserveAspectRatio="none"
          width="100%"
          height="100%"
          aria-hidden="true"
          focusable="false"
        >
          {boxes.map((box, index) => (
            <rect
              // Boxes have no id; their order in the answer is stable.
              key={index}
              x={box.xmin}
              y={box.ymin}
              width={box.xmax - box.xmin}
              height={box.ymax - box.ymin}
              fill="none"
              stroke={colours.get(box.crop_prediction)}
              strokeWidth={3}
              strokeDasharray={box.tier === 'possible' ? '8 5' : undefined}
              vectorEffect="non-scaling-stroke"
            />
          ))}
        </svg>
      )}
      {size !== undefined &&
        boxes.map(
          (box, index) =>
            box.tier != null && (
              <span
                // Boxes have no id; their order in the answer is stable.
                key={index}
                className={zoom === undefined ? classes.tierOnPage : classes.tier}
                style={{
                  borderLeftColor: colours.get(box.crop_prediction),
                  ...(zoom === undefined ? {} : { scale: String(1 / zoom) }),
                  top: `${String((100 * box.ymin) / size.height)}%`,
                  // Near the right edge the word ends at the box's right side instead, so that
                  // it stays on the image.
                  ...(box.xmin > size.width * 0.75
                    ? {
                        right: `${String(100 - (100 * box.xmax) / size.width)}%`,
                        translate: '-6px',
                      }
                    : { left: `${String((100 * box.xmin) / size.width)}%` }),
                }}
              >
                {box.tier}
              </span>
            ),
        )}
    </div>
  );
}
