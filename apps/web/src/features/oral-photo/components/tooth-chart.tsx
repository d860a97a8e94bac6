import { useId, type ReactNode } from 'react';
import { Group, Input, Text } from '@mantine/core';
import { Link } from 'react-router';
import { toothName } from '@dental/contracts';
import { paths } from '#web/config/paths';
import classes from './tooth-chart.module.css';

/** The jaws as a dentist's chart draws them: the patient's right on the viewer's left. */
const jaws = [
  {
    name: 'Upper jaw',
    quadrants: [
      { name: 'Upper right', teeth: [18, 17, 16, 15, 14, 13, 12, 11] },
      { name: 'Upper left', teeth: [21, 22, 23, 24, 25, 26, 27, 28] },
    ],
  },
  {
    name: 'Lower jaw',
    quadrants: [
      { name: 'Lower right', teeth: [48, 47, 46, 45, 44, 43, 42, 41] },
      { name: 'Lower left', teeth: [31, 32, 33, 34, 35, 36, 37, 38] },
    ],
  },
];

/** 'Tooth 16 (upper right first molar)': the number stays first, so the visible '16' is in it. */
export function toothLabel(tooth: number): string {
  return `Tooth ${String(tooth)} (${toothName(tooth)})`;
}

/** The 32 permanent teeth in FDI order (docs/product/records.md#tooth-tags); each tooth is drawn
 *  by `renderTooth`, a toggle in the picker or a link on the chart screen. */
export function ToothChart({ renderTooth }: { renderTooth: (tooth: number) => ReactNode }) {
  return (
    <div className={classes.chart}>
      {jaws.map((jaw) => (
        <fieldset key={jaw.name} className={classes.jaw}>
          <legend>{jaw.name}</legend>
          {jaw.quadrants.map((quadrant) => (
            <div key={quadrant.name} className={classes.quadrant}>
              <span className={classes.quadrantName} aria-hidden>
                {quadrant.name}
              </span>
              <ul className={classes.teeth} aria-label={quadrant.name}>
                {quadrant.teeth.map((tooth) => (
                  <li key={tooth}>{renderTooth(tooth)}</li>
                ))}
              </ul>
            </div>
          ))}
        </fieldset>
      ))}
    </div>
  );
}

export interface ToothPickerProps {
  value: readonly number[];
  onChange: (teeth: number[]) => void;
  disabled?: boolean;
}

/** The form's picker: each tooth a toggle button; the answer is sorted like the API's. */
export function ToothPicker({ value, onChange, disabled = false }: ToothPickerProps) {
  const id = useId();
  const toggle = (tooth: number) => {
    onChange(
      value.includes(tooth)
        ? value.filter((picked) => picked !== tooth)
        : [...value, tooth].sort((a, b) => a - b),
    );
  };
  return (
    // The form's label style; a group, not a label, since it names many buttons.
    <Input.Wrapper
      role="group"
      aria-labelledby={`${id}-label`}
      aria-describedby={`${id}-help`}
      label="Teeth shown (optional)"
      labelElement="div"
      labelProps={{ id: `${id}-label` }}
      description="Pick the teeth this image shows, with your dentist’s tooth numbers, to find it on each tooth’s timeline."
      descriptionProps={{ id: `${id}-help`, mb: 'xs' }}
    >
      <ToothChart
        renderTooth={(tooth) => (
          <button
            type="button"
            className={classes.tooth}
            aria-pressed={value.includes(tooth)}
            aria-label={toothLabel(tooth)}
            disabled={disabled}
            onClick={() => {
              toggle(tooth);
            }}
          >
            {tooth}
          </button>
        )}
      />
      <Text size="sm" mt="xs" aria-live="polite">
        {value.length === 0 ? 'No teeth picked.' : `Picked: ${value.join(', ')}.`}
      </Text>
    </Input.Wrapper>
  );
}

/** A photo's teeth as links to their timelines (docs/product/records.md#tooth-tags). */
export function TeethLinks({ teeth }: { teeth: readonly number[] }) {
  if (teeth.length === 0) return null;
  return (
    <Group gap={6} align="center">
      <Text span fw={600}>
        Teeth:
      </Text>
      {teeth.map((tooth) => (
        <Link
          key={tooth}
          to={paths.toothTimeline(tooth)}
          className={classes.chip}
          aria-label={`${toothLabel(tooth)} timeline`}
        >
          {tooth}
        </Link>
      ))}
    </Group>
  );
}
