import type { TierFigures } from './operating-points';

/** One class's precision–recall curve on the test split and its two tiers on it. */
export interface ClassCurve {
  name: string;
  /** Recall and precision from each threshold tried, highest threshold first. */
  points: TierFigures[];
  possible: TierFigures & { from: number };
  likely: (TierFigures & { from: number }) | null;
}

// The Okabe–Ito palette: told apart with every common colour-vision deficiency.
const colours = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'];
const width = 560;
const plot = { left: 60, top: 40, right: 540, bottom: 330 };
/** Where the legend's first row sits, under the axis label. */
const legendTop = plot.bottom + 62;
const x = (recall: number) => plot.left + recall * (plot.right - plot.left);
const y = (precision: number) => plot.bottom - precision * (plot.bottom - plot.top);
const escape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * A precision–recall chart of a model's classes on its test split, with the 'possible' point
 * (a ring) and the 'likely' point (a dot) of each, as an SVG for the model card.
 */
export function prCurveSvg(title: string, curves: readonly ClassCurve[]): string {
  const height = legendTop + curves.length * 18;
  const grid = [0, 0.2, 0.4, 0.6, 0.8, 1].flatMap((value) => [
    `<line x1="${String(x(value))}" y1="${String(plot.top)}" x2="${String(x(value))}" y2="${String(plot.bottom)}" stroke="#ddd"/>`,
    `<line x1="${String(plot.left)}" y1="${String(y(value))}" x2="${String(plot.right)}" y2="${String(y(value))}" stroke="#ddd"/>`,
    `<text x="${String(x(value))}" y="${String(plot.bottom + 18)}" text-anchor="middle">${value.toFixed(1)}</text>`,
    `<text x="${String(plot.left - 8)}" y="${String(y(value) + 4)}" text-anchor="end">${value.toFixed(1)}</text>`,
  ]);
  const series = curves.flatMap((curve, index) => {
    const colour = colours[index % colours.length] ?? '#000';
    // Until a threshold finds a labelled box, precision says nothing about the curve.
    const path = curve.points
      .filter((point) => point.recall > 0)
      .map((point) => `${x(point.recall).toFixed(1)},${y(point.precision).toFixed(1)}`)
      .join(' ');
    const legendY = legendTop + index * 18;
    return [
      `<polyline fill="none" stroke="${colour}" stroke-width="2" points="${path}"/>`,
      `<circle cx="${x(curve.possible.recall).toFixed(1)}" cy="${y(curve.possible.precision).toFixed(1)}" r="6" fill="#fff" stroke="${colour}" stroke-width="2"/>`,
      ...(curve.likely === null
        ? []
        : [
            `<circle cx="${x(curve.likely.recall).toFixed(1)}" cy="${y(curve.likely.precision).toFixed(1)}" r="4" fill="${colour}"/>`,
          ]),
      `<line x1="${String(plot.left)}" y1="${String(legendY - 4)}" x2="${String(plot.left + 20)}" y2="${String(legendY - 4)}" stroke="${colour}" stroke-width="2"/>`,
      `<text x="${String(plot.left + 26)}" y="${String(legendY)}">${escape(curve.name)}: possible ${curve.possible.from.toFixed(2)}${curve.likely === null ? '' : `, likely ${curve.likely.from.toFixed(2)}`}</text>`,
    ];
  });
  const description = curves
    .map(
      (curve) =>
        `${curve.name}: possible from ${curve.possible.from.toFixed(2)}, recall ${curve.possible.recall.toFixed(2)} and precision ${curve.possible.precision.toFixed(2)}${curve.likely === null ? '; no likely tier' : `; likely from ${curve.likely.from.toFixed(2)}, recall ${curve.likely.recall.toFixed(2)} and precision ${curve.likely.precision.toFixed(2)}`}.`,
    )
    .join(' ');
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${String(width)}" height="${String(height)}" viewBox="0 0 ${String(width)} ${String(height)}" font-family="sans-serif" font-size="12" role="img" aria-labelledby="title description">`,
    `<title id="title">${escape(title)}</title>`,
    `<desc id="description">${escape(`Precision against recall on the test split, one line per class, from score thresholds 0.99 down to 0.05. A ring marks where boxes start to be shown as possible, a dot where they are called likely. ${description}`)}</desc>`,
    `<rect width="${String(width)}" height="${String(height)}" fill="#fff"/>`,
    `<text x="${String(width / 2)}" y="22" text-anchor="middle" font-size="14">${escape(title)}</text>`,
    ...grid,
    `<text x="${String((plot.left + plot.right) / 2)}" y="${String(plot.bottom + 38)}" text-anchor="middle">recall (share of labelled boxes found, IoU ≥ 0.5)</text>`,
    `<text transform="translate(16 ${String((plot.top + plot.bottom) / 2)}) rotate(-90)" text-anchor="middle">precision</text>`,
    ...series,
    '</svg>',
    '',
  ].join('\n');
}
