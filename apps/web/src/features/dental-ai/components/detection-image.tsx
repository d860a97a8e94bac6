import type { DetectionBox, DetectionColour } from '@dental/contracts';
import classes from './detection-image.module.css';

export interface DetectionImageProps {
  src: string;
  alt: string;
  /** The image's own pixel size, the space the boxes are given in. */
  width: number;
  height: number;
  boxes: readonly DetectionBox[];
  colours: ReadonlyMap<string, DetectionColour>;
}

/**
 * The image with its boxes drawn over it: the overlay's coordinate system is the image's pixels
 * and is stretched to whatever size the image is shown at, so the boxes stay on the teeth at any
 * screen width while their lines stay 3 px wide (docs/product/dental-ai.md#boxes-and-colours).
 */
export function DetectionImage({ src, alt, width, height, boxes, colours }: DetectionImageProps) {
  return (
    <div className={classes.frame}>
      <img className={classes.image} src={src} alt={alt} width={width} height={height} />
      <svg
        className={classes.boxes}
        viewBox={`0 0 ${width} ${height}`}
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
    </div>
  );
}
