import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it, vi } from 'vitest';
import {
  aboutShare,
  measuredSentences,
  tierSentence,
  dentalAiDisclaimer,
  lookedFor,
  nextStepsWhenMarked,
  nothingMarked,
  type DentalAiResult,
  type DetectionBox,
} from '@dental/contracts';
import { shippedModelNames } from '#web/components/dataset-credit';
import { DetectionResult } from './components/detection-result';

function box(crop_prediction: string, xmin: number, ymin: number, xmax: number, ymax: number) {
  return { crop_prediction, xmin, ymin, xmax, ymax, confidence: 0.9 } satisfies DetectionBox;
}

const baseResult: DentalAiResult = {
  id: '2c8e4f6a-1b3d-4e5f-8a7b-9c0d1e2f3a4b',
  dental_ai: 'caries',
  image_url: '/api/files/xray.png?sig=1',
  image_width: 1200,
  image_height: 600,
  detection_selection: [],
  image_kind: 'xray',
  image_kind_source: 'pixels',
  model_name: shippedModelNames.xray[0],
  model_version: '1+sha256:0123456789ab',
  created_at: '2026-03-02T10:15:00.000Z',
  oral_photo_id: null,
  model_figures: null,
};

function renderResult(changes: Partial<DentalAiResult> = {}) {
  const onTryAnother = vi.fn();
  const view = render(
    <MantineProvider>
      <DetectionResult result={{ ...baseResult, ...changes }} onTryAnother={onTryAnother} />
    </MantineProvider>,
  );
  const svg = view.container.querySelector('svg');
  if (svg === null) throw new Error('no overlay drawn');
  return { ...view, svg, rects: [...svg.querySelectorAll('rect')], onTryAnother };
}

describe('Dental AI result view', () => {
  it('draws the boxes in the image’s own pixels, stretched with the image at any width', () => {
    const { svg, rects } = renderResult({
      detection_selection: [box('Cavity', 100, 50, 160, 250), box('Cavity', 900.5, 20, 1000, 580)],
    });
    expect(svg).toHaveAttribute('viewBox', '0 0 1200 600');
    expect(svg).toHaveAttribute('preserveAspectRatio', 'none');
    expect(svg).toHaveAttribute('width', '100%');
    expect(svg).toHaveAttribute('height', '100%');
    expect(screen.getByRole('img', { name: 'The uploaded image with 2 areas marked' })).toEqual(
      svg.previousElementSibling,
    );
    expect(
      rects.map((rect) => ['x', 'y', 'width', 'height'].map((name) => rect.getAttribute(name))),
    ).toEqual([
      ['100', '50', '60', '200'],
      ['900.5', '20', '99.5', '560'],
    ]);
    for (const rect of rects) {
      expect(rect).toHaveAttribute('fill', 'none');
      expect(rect).toHaveAttribute('stroke-width', '3');
      // The line stays 3 screen pixels wide however far the image is scaled.
      expect(rect).toHaveAttribute('vector-effect', 'non-scaling-stroke');
    }
  });

  it('colours each class by the order of its first box, and the legend says so with counts', () => {
    const { rects } = renderResult({
      detection_selection: [
        box('Fillings', 0, 0, 10, 10),
        box('Cavity', 10, 10, 20, 20),
        box('Fillings', 20, 20, 30, 30),
        box('Implant', 30, 30, 40, 40),
      ],
    });
    expect(rects.map((rect) => rect.getAttribute('stroke'))).toEqual([
      'red',
      'green',
      'red',
      'yellow',
    ]);
    const legend = screen.getByRole('list', { name: 'Findings' });
    const items = within(legend).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Fillings: 2 red boxes',
      'Cavity: 1 green box',
      'Implant: 1 yellow box',
    ]);
    expect(items.map((item) => item.querySelector('span')?.style.borderColor)).toEqual([
      'red',
      'green',
      'yellow',
    ]);
  });

  it('says in plain words what was looked for, how many areas were marked and what to do', () => {
    renderResult({
      detection_selection: [box('Cavity', 0, 0, 10, 10), box('Cavity', 10, 10, 20, 20)],
    });
    expect(screen.getByText(lookedFor.caries)).toBeVisible();
    expect(screen.getByText('The model marked 2 areas.')).toBeVisible();
    expect(screen.getByText(nextStepsWhenMarked)).toBeVisible();
    expect(screen.queryByText(nothingMarked)).not.toBeInTheDocument();
  });

  it('says that nothing was marked and that this rules nothing out', () => {
    const { rects } = renderResult({ dental_ai: 'wisdom_teeth' });
    expect(rects).toHaveLength(0);
    expect(screen.getByText(lookedFor.wisdom_teeth)).toBeVisible();
    expect(screen.getByText(nothingMarked)).toBeVisible();
    expect(nothingMarked).toContain('This does not rule anything out');
    expect(screen.queryByRole('list', { name: 'Findings' })).not.toBeInTheDocument();
    expect(
      screen.getByRole('img', { name: 'The uploaded image with 0 areas marked' }),
    ).toHaveAttribute('src', baseResult.image_url);
  });

  it.each([
    ['caries', 'Caries Result'],
    ['wisdom_teeth', 'Wisdom Teeth Result'],
  ] as const)('titles a %s result %j and shows the disclaimer', (dental_ai, title) => {
    renderResult({ dental_ai });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(title);
    expect(screen.getByText(dentalAiDisclaimer)).toBeVisible();
  });

  it('keeps the model and the data set credit under About this result, for the shipped model only', async () => {
    const { unmount } = renderResult();
    const about = screen.getByText('About this result');
    expect(screen.getByRole('link', { name: 'CC BY 4.0' })).not.toBeVisible();
    await userEvent.click(about);
    expect(screen.getByRole('link', { name: 'CC BY 4.0' })).toHaveAttribute(
      'href',
      'https://creativecommons.org/licenses/by/4.0/',
    );
    expect(screen.getByRole('link', { name: /X-ray images/ })).toBeVisible();
    expect(screen.getByRole('link', { name: /X-ray images/ })).toHaveAttribute(
      'href',
      'https://universe.roboflow.com/dental-uispo/-bhjcu',
    );
    expect(screen.getByText(/version 1\+sha256:0123456789ab/)).toBeVisible();
    unmount();
    renderResult({ model_name: 'clinic-caries-v2' });
    await userEvent.click(screen.getByText('About this result'));
    expect(screen.getByText(/by the model clinic-caries-v2/)).toBeVisible();
    expect(screen.queryByRole('link', { name: 'CC BY 4.0' })).not.toBeInTheDocument();
  });

  it.each([
    ['xray', 'pixels', 'We read your image as an X-ray.'],
    ['photo', 'pixels', 'We read your image as a colour photo.'],
    ['xray', 'member', 'We read your image as an X-ray, as you told us.'],
    ['photo', 'member', 'We read your image as a colour photo, as you told us.'],
  ] as const)('says a %s read from the %s: %j', (image_kind, image_kind_source, sentence) => {
    renderResult({ image_kind, image_kind_source });
    expect(screen.getByText(sentence)).toBeVisible();
  });

  it('credits the cavity photo data set under results of the shipped photo model', async () => {
    renderResult({ image_kind: 'photo', model_name: shippedModelNames.photo[0] });
    await userEvent.click(screen.getByText('About this result'));
    expect(screen.getByRole('link', { name: 'cavity photo data set' })).toHaveAttribute(
      'href',
      'https://github.com/mainak1023/dental_cavity_detection',
    );
    expect(screen.getByText(/provided by CAV-TEE Research Team/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'CC BY 4.0' })).toHaveAttribute(
      'href',
      'https://creativecommons.org/licenses/by/4.0/',
    );
    expect(screen.queryByRole('link', { name: /X-ray images/ })).not.toBeInTheDocument();
  });

  it('keeps the X-ray data set credit under a result of the earlier X-ray model', async () => {
    renderResult({ model_name: 'dental-xray-4class' });
    await userEvent.click(screen.getByText('About this result'));
    expect(screen.getByRole('link', { name: /X-ray images/ })).toHaveAttribute(
      'href',
      'https://universe.roboflow.com/dental-uispo/-bhjcu',
    );
  });

  it('says how sure the model is of each box, and what it is measured to find', async () => {
    const { rects } = renderResult({
      detection_selection: [
        { ...box('Cavity', 100, 50, 160, 250), confidence: 0.7, tier: 'likely' },
        { ...box('Cavity', 900, 20, 1000, 580), confidence: 0.3, tier: 'possible' },
      ],
      model_figures: {
        measured_by: 'npm run eval:dental-ai',
        images: 127,
        nms_iou: 0.45,
        match_iou: 0.5,
        image_kind: 'xray',
        classes: {
          Cavity: {
            boxes: 41,
            possible_from: 0.25,
            likely_from: 0.5,
            recall: 0.22,
            precision: 0.31,
            likely_recall: 0.05,
            likely_precision: 0.5,
          },
        },
      },
    });
    // The words on the boxes, and a dashed line for 'possible'.
    expect(screen.getByText('likely')).toBeVisible();
    expect(screen.getByText('possible')).toBeVisible();
    expect(rects.map((rect) => rect.getAttribute('stroke-dasharray'))).toEqual([null, '8 5']);
    expect(
      within(screen.getByRole('list', { name: 'Findings' })).getByRole('listitem'),
    ).toHaveTextContent('Cavity: 2 red boxes (1 likely, 1 possible)');
    expect(
      screen.getByText(
        "'Likely' marks a box the model scored 0.50 or more (out of 1); 'possible', with a dashed line, one it scored from 0.25 up to that. Zoom to read the word on each box. Neither is a diagnosis.",
      ),
    ).toBeVisible();
    await userEvent.click(screen.getByText('About this result'));
    expect(
      screen.getByText(
        'On 127 held-out X-rays it had not seen in training, it marked about 1 in 5 of the cavities that had been marked by hand, so a clean result does not mean no decay. Of all its boxes, about 3 in 10 were on such a cavity. Of the boxes it calls likely, about 1 in 2 were on such a cavity, and they marked about 1 in 10 of the cavities.',
      ),
    ).toBeVisible();
  });

  it('says so when no score of the model is precise enough to call a box likely', () => {
    expect(tierSentence({ possible_from: 0.05, likely_from: null })).toBe(
      "'Possible', with a dashed line, marks a box the model scored 0.05 or more (out of 1). No score of this model was precise enough to call a box likely. Zoom to read the word on each box. It is not a diagnosis.",
    );
    expect(
      measuredSentences({
        measured_by: 'npm run eval:dental-ai',
        images: 62,
        nms_iou: 0.45,
        match_iou: 0.5,
        image_kind: 'photo',
        classes: {
          Cavity: {
            boxes: 298,
            possible_from: 0.05,
            likely_from: null,
            recall: 0.61,
            precision: 0.2,
            likely_recall: null,
            likely_precision: null,
          },
        },
      }),
    ).toEqual([
      'On 62 held-out photos it had not seen in training, it marked about 3 in 5 of the cavities that had been marked by hand, so a clean result does not mean no decay. Of all its boxes, about 1 in 5 were on such a cavity. It calls none of its boxes likely.',
    ]);
  });

  it('puts shares in plain words', () => {
    expect([0.02, 0.22, 0.25, 0.31, 0.44, 0.5, 0.695, 0.8, 0.97].map(aboutShare)).toEqual([
      'fewer than 1 in 10',
      'about 1 in 5',
      'about 3 in 10',
      'about 3 in 10',
      'about 2 in 5',
      'about 1 in 2',
      'about 7 in 10',
      'about 4 in 5',
      'nearly all',
    ]);
  });

  it('offers Try Another Detection', async () => {
    const { onTryAnother } = renderResult();
    await userEvent.click(screen.getByRole('button', { name: 'Try Another Detection' }));
    expect(onTryAnother).toHaveBeenCalledOnce();
  });
});
