import type { SVGProps } from 'react';
import type { CaptureView } from '@dental/contracts';
import { captureOutline } from '@dental/contracts/photo-quality';

/** Each view's guide inside the outline, in a 100 × 100 box stretched over the frame: the bite
 *  line for the front and the sides, an arch for the upper and lower teeth. */
const guides: Record<CaptureView, string> = {
  front: 'M 14 50 Q 50 56 86 50',
  upper: 'M 22 74 C 22 22, 78 22, 78 74',
  lower: 'M 22 26 C 22 78, 78 78, 78 26',
  left: 'M 14 50 L 86 50 M 34 30 L 34 70',
  right: 'M 14 50 L 86 50 M 66 30 L 66 70',
};

/** The outline drawn over the camera for a view: the ellipse the quality check reads teeth in,
 *  and the view's guide. Decorative: the hint beside it says what to do. */
export function CaptureOutline({ view }: { view: CaptureView }) {
  const { centreX, centreY, radiusX, radiusY } = captureOutline;
  // vector-effect is not inherited, so each shape carries its stroke.
  const shapes = (stroke: SVGProps<SVGPathElement>) => (
    <>
      <ellipse
        cx={centreX * 100}
        cy={centreY * 100}
        rx={radiusX * 100}
        ry={radiusY * 100}
        vectorEffect="non-scaling-stroke"
        {...(stroke as SVGProps<SVGEllipseElement>)}
      />
      <path d={guides[view]} vectorEffect="non-scaling-stroke" {...stroke} />
    </>
  );
  return (
    <svg
      viewBox="0 0 100 100"
      preserveAspectRatio="none"
      aria-hidden="true"
      style={{ position: 'absolute', inset: 0, width: '100%', height: '100%' }}
      fill="none"
    >
      {/* A dark line under a white one, so the outline shows on pale and dark scenes alike. */}
      {shapes({ stroke: 'rgba(0, 0, 0, 0.6)', strokeWidth: 5 })}
      {shapes({ stroke: '#fff', strokeWidth: 2.5, strokeDasharray: '8 6' })}
    </svg>
  );
}
