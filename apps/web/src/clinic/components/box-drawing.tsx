import { useRef, useState, type PointerEvent } from 'react';
import picture from '#web/components/detection-image.module.css';
import classes from './box-drawing.module.css';

/** [x1, y1, x2, y2] in the image's pixels, x1 < x2 and y1 < y2 (the review's box). */
export type Box = [x1: number, y1: number, x2: number, y2: number];

/** How a box is drawn: an AI mark not judged yet, confirmed or rejected, one the dentist added,
 *  or the box being drawn. */
export type BoxTone = 'waiting' | 'confirmed' | 'rejected' | 'added' | 'draft';

export interface ShownBox {
  box: Box;
  tone: BoxTone;
  /** The short name the lists beside the image use for it: 'AI 1', 'Yours 2'. */
  name?: string;
}

interface Point {
  x: number;
  y: number;
}

/** A press that moves less than this (screen pixels) is a tap: a corner, not a drag. */
const tapSlop = 8;

export function boxBetween(a: Point, b: Point): Box {
  return [Math.min(a.x, b.x), Math.min(a.y, b.y), Math.max(a.x, b.x), Math.max(a.y, b.y)];
}

export const isBox = ([x1, y1, x2, y2]: Box) => x1 < x2 && y1 < y2;

/**
 * The review's image with its boxes, on which a dentist draws a box with a mouse, a pen or a
 * finger: drag from corner to corner, or tap one corner and then the opposite one (no dragging,
 * WCAG 2.5.7). Each drawn box goes to `onDraw`; the page's corner fields are the keyboard's way
 * to the same box (docs/clinic.md#dentist-reviews). The overlay's coordinates are the image's
 * pixels, stretched to whatever size the image is shown at.
 */
export function BoxDrawing({
  src,
  alt,
  width,
  height,
  boxes,
  onDraw,
}: {
  src: string;
  alt: string;
  width: number;
  height: number;
  boxes: readonly ShownBox[];
  onDraw: (box: Box) => void;
}) {
  const overlay = useRef<SVGSVGElement>(null);
  const [press, setPress] = useState<{ at: Point; clientX: number; clientY: number } | null>(null);
  const [dragged, setDragged] = useState<Box | null>(null);
  const [corner, setCorner] = useState<Point | null>(null);

  const pointOf = (event: PointerEvent): Point => {
    const area = overlay.current?.getBoundingClientRect();
    if (area === undefined || area.width === 0 || area.height === 0) return { x: 0, y: 0 };
    const clamp = (value: number, most: number) => Math.min(most, Math.max(0, Math.round(value)));
    return {
      x: clamp(((event.clientX - area.left) / area.width) * width, width),
      y: clamp(((event.clientY - area.top) / area.height) * height, height),
    };
  };
  const finish = (box: Box) => {
    if (isBox(box)) onDraw(box);
  };

  const shown = dragged === null ? boxes : [...boxes, { box: dragged, tone: 'draft' as const }];
  // The names' size in the image's pixels: about 12 px on a phone, whatever the image's size.
  const mark = Math.max(width, height) / 25;
  // The Dental AI result's frame and image: the overlay's 100 % is exactly the drawn image.
  return (
    <div className={picture.frame}>
      <img className={picture.image} src={src} alt={alt} width={width} height={height} />
      <svg
        ref={overlay}
        className={classes.overlay}
        viewBox={`0 0 ${String(width)} ${String(height)}`}
        preserveAspectRatio="none"
        width="100%"
        height="100%"
        aria-hidden="true"
        focusable="false"
        data-testid="drawing-area"
        onPointerDown={(event) => {
          if (!event.isPrimary || event.button !== 0) return;
          event.currentTarget.setPointerCapture(event.pointerId);
          setPress({ at: pointOf(event), clientX: event.clientX, clientY: event.clientY });
        }}
        onPointerMove={(event) => {
          if (press !== null) setDragged(boxBetween(press.at, pointOf(event)));
        }}
        onPointerUp={(event) => {
          if (press === null) return;
          const point = pointOf(event);
          const moved = Math.hypot(event.clientX - press.clientX, event.clientY - press.clientY);
          if (moved > tapSlop) {
            finish(boxBetween(press.at, point));
            setCorner(null);
          } else if (corner === null) {
            setCorner(point);
          } else {
            finish(boxBetween(corner, point));
            setCorner(null);
          }
          setPress(null);
          setDragged(null);
        }}
        onPointerCancel={() => {
          setPress(null);
          setDragged(null);
        }}
      >
        {shown.map(({ box: [x1, y1, x2, y2], tone, name }, index) => (
          // Boxes have no id; their order is the lists' order beside the image.
          <g key={index} className={classes[tone]}>
            <rect
              x={x1}
              y={y1}
              width={x2 - x1}
              height={y2 - y1}
              fill="none"
              strokeWidth={3}
              vectorEffect="non-scaling-stroke"
            />
            {name !== undefined && (
              <text x={x1 + mark / 4} y={y1 + mark} fontSize={mark}>
                {name}
              </text>
            )}
          </g>
        ))}
        {corner !== null && (
          <circle className={classes.draft} cx={corner.x} cy={corner.y} r={mark / 4} />
        )}
      </svg>
    </div>
  );
}
