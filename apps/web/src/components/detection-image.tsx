import { useState } from 'react';
import type { DetectionBox, DetectionColour } from '@dental/contracts';
import classes from './detection-image.module.css';

/** A box to draw: its corners in the image's pixels and the label its colour is chosen by. */
export type DrawnBox = Pick<DetectionBox, 'xmin' | 'ymin' | 'xmax' | 'ymax' | 'crop_prediction'>;

export interface DetectionImageProps {
  src: string;
  alt: string;
  /** The image's own pixel size, the space the boxes are given in; when not known (a reviewed
   *  photo), the image's natural size once it has loaded. */
  width?: number | undefined;
  height?: number | undefined;
  boxes: readonly DrawnBox[];
  colours: ReadonlyMap<string, DetectionColour>;
}

/**
 * The image with its boxes drawn over it: the overlay's coordinate system is the image's pixels
 * and is stretched to whatever size the image is shown at, so the boxes stay on the teeth at any
 * screen width while their lines stay 3 px wide (docs/product/dental-ai.md#boxes-and-colours).
 * Shared by the Dental AI result and a dentist's review (docs/product/photo-reviews.md).
 */
export function DetectionImage({ src, alt, width, height, boxes, colours }: DetectionImageProps) {
  const [natural, setNatural] = useState<{ width: number; height: number } | undefined>();
  const size = width !== undefined && height !== undefined ? { width, height } : natural;
  return (
    <div className={classes.frame}>
      <img
        className={classes.image}
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
              vectorEffect="non-scaling-stroke"
            />
          ))}
        </svg>
      )}
    </div>
  );
}
