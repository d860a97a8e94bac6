import type { DetectionBox, DetectionColour } from '@dental/contracts';
import classes from './findings-legend.module.css';

export interface FindingsLegendProps {
  boxes: readonly DetectionBox[];
  colours: ReadonlyMap<string, DetectionColour>;
}

/** Each class in the order its colour was given, with its colour and how many boxes it has. */
function findingClasses(
  boxes: readonly DetectionBox[],
  colours: ReadonlyMap<string, DetectionColour>,
) {
  return [...colours].map(([label, colour]) => ({
    label,
    colour,
    count: boxes.filter((box) => box.crop_prediction === label).length,
    likely: boxes.filter((box) => box.crop_prediction === label && box.tier === 'likely').length,
    possible: boxes.filter((box) => box.crop_prediction === label && box.tier === 'possible')
      .length,
  }));
}

/** ' (1 likely, 2 possible)': how sure the model is of a class's boxes; nothing for a model
 *  without recorded thresholds. */
function tierCounts(likely: number, possible: number) {
  const parts = [
    ...(likely > 0 ? [`${String(likely)} likely`] : []),
    ...(possible > 0 ? [`${String(possible)} possible`] : []),
  ];
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`;
}

/** The legend of the drawn boxes; its words also tell a screen reader what the image shows. */
export function FindingsLegend({ boxes, colours }: FindingsLegendProps) {
  return (
    <ul className={classes.list} aria-label="Findings">
      {findingClasses(boxes, colours).map(({ label, colour, count, likely, possible }) => (
        <li key={label} className={classes.item}>
          <span className={classes.swatch} style={{ borderColor: colour }} aria-hidden="true" />
          <span>
            <strong>{label}</strong>: {count} {colour} {count === 1 ? 'box' : 'boxes'}
            {tierCounts(likely, possible)}
          </span>
        </li>
      ))}
    </ul>
  );
}
