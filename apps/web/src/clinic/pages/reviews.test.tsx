import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { clinicReviewPaths, type ClinicReview } from '@dental/contracts';
import { json, problemResponse } from '#web/test/fetch-stub';
import { renderConsole, testStaff } from '../test/render-console';

const reviewId = '3f2e1d0c-9b8a-4776-8554-433221100fed';
const resultId = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';

const waiting: ClinicReview = {
  id: reviewId,
  status: 'waiting',
  question: 'Is this <b>a cavity</b>?',
  photos: [],
  dental_ai: resultId,
  images: [
    {
      photo: null,
      image_url: '/media/result.png',
      width: 640,
      height: 480,
      ai_boxes: [
        { xmin: 160, ymin: 160, xmax: 240, ymax: 240, crop_prediction: 'Caries', confidence: 0.9 },
        { xmin: 240, ymin: 160, xmax: 320, ymax: 240, crop_prediction: 'Caries', confidence: 0.6 },
      ],
    },
  ],
  report: null,
  findings: [],
  reviewer: null,
  created_at: '2026-11-28T09:00:00Z',
  answered_at: null,
  patient: { id: 'f0e1d2c3-b4a5-4968-8776-655443322110', username: 'Ada Patient' },
};

function open(path: string, staff = testStaff) {
  let current = waiting;
  return renderConsole(
    path,
    {
      [`GET ${clinicReviewPaths.list}?status=waiting`]: () => {
        return json({ results: [waiting] });
      },
      [`GET ${clinicReviewPaths.one(reviewId)}`]: () => json(current),
      [`PUT ${clinicReviewPaths.one(reviewId)}`]: (request) => {
        const answer = request.body as Pick<ClinicReview, 'report' | 'findings'>;
        current = {
          ...waiting,
          ...answer,
          status: 'answered',
          reviewer: { name: staff.name },
          answered_at: '2026-11-29T10:00:00Z',
        };
        return json(current);
      },
    },
    { staff },
  );
}

describe('the console’s dentist reviews', () => {
  it('lists the waiting reviews with the patient and the question as text', async () => {
    open('/clinic/reviews');
    const list = await screen.findByRole('list', { name: 'Reviews' });
    expect(
      within(list).getByRole('link', { name: 'Ada Patient asks about a Dental AI result' }),
    ).toBeInTheDocument();
    expect(within(list).getByText('Is this <b>a cavity</b>?')).toBeInTheDocument();
    expect(list.querySelector('b')).toBeNull();
  });

  it('asks for a verdict on every AI mark and a report before sending', async () => {
    const { api, user } = open(`/clinic/reviews/${reviewId}`);
    const send = await screen.findByRole('button', { name: 'Send the answer' });
    await user.click(send);
    expect(
      screen.getByText('Confirm or reject each mark of the Dental AI: 2 are not judged yet.'),
    ).toBeInTheDocument();
    await user.click(
      within(screen.getByRole('radiogroup', { name: /^AI 1: Caries/ })).getByLabelText('Confirm'),
    );
    await user.click(
      within(screen.getByRole('radiogroup', { name: /^AI 2: Caries/ })).getByLabelText('Reject'),
    );
    await user.click(send);
    expect(screen.getByText('Write the report.')).toBeInTheDocument();
    expect(api.to(`PUT ${clinicReviewPaths.one(reviewId)}`)).toHaveLength(0);
  });

  it('adds a box typed corner by corner, refuses one turned inside out, and sends the findings', async () => {
    const { api, user } = open(`/clinic/reviews/${reviewId}`);
    const corner = async (name: string, value: string) => {
      const field = await screen.findByRole('textbox', { name });
      await user.clear(field);
      await user.type(field, value);
    };
    await corner('Left (x1)', '400');
    await corner('Top (y1)', '300');
    await corner('Right (x2)', '300');
    await corner('Bottom (y2)', '400');
    await user.type(screen.getByRole('textbox', { name: 'What it shows' }), 'Calculus');
    await user.click(screen.getByRole('button', { name: 'Add box' }));
    expect(
      screen.getByText(/Give all four corners inside the image \(640 × 480 pixels\)/),
    ).toBeInTheDocument();
    await corner('Right (x2)', '500');
    await user.click(screen.getByRole('button', { name: 'Add box' }));
    const yours = screen.getByRole('list', { name: 'Your boxes on the patient’s image' });
    expect(within(yours).getByRole('listitem').textContent).toMatch(
      /^Yours 1: Calculus, from 400, 300 to 500, 400/,
    );
    expect(screen.getByRole('textbox', { name: 'Left (x1)' })).toHaveValue('');

    await user.click(
      within(screen.getByRole('radiogroup', { name: /^AI 1: Caries/ })).getByLabelText('Confirm'),
    );
    await user.click(
      within(screen.getByRole('radiogroup', { name: /^AI 2: Caries/ })).getByLabelText('Reject'),
    );
    await user.type(
      screen.getByRole('textbox', { name: 'Report for the patient' }),
      'A small cavity.',
    );
    await user.click(screen.getByRole('button', { name: 'Send the answer' }));
    await waitFor(() => {
      expect(api.to(`PUT ${clinicReviewPaths.one(reviewId)}`)).toHaveLength(1);
    });
    expect(api.to(`PUT ${clinicReviewPaths.one(reviewId)}`)[0]?.body).toEqual({
      report: 'A small cavity.',
      findings: [
        {
          box: [160, 160, 240, 240],
          label: 'Caries',
          verdict: 'confirmed',
          ai_box: 0,
          photo: null,
        },
        { box: [240, 160, 320, 240], label: 'Caries', verdict: 'rejected', ai_box: 1, photo: null },
        {
          box: [400, 300, 500, 400],
          label: 'Calculus',
          verdict: 'added',
          ai_box: null,
          photo: null,
        },
      ],
    });
    expect(await screen.findByText(/^Your answer was sent\./)).toBeInTheDocument();
    expect(
      screen.getByRole('heading', { name: 'The answer, as the patient sees it' }),
    ).toBeInTheDocument();
    expect(screen.getByText('A small cavity.')).toBeInTheDocument();
  });

  it('removes a box before sending', async () => {
    const { user } = open(`/clinic/reviews/${reviewId}`);
    for (const [name, value] of [
      ['Left (x1)', '10'],
      ['Top (y1)', '10'],
      ['Right (x2)', '20'],
      ['Bottom (y2)', '20'],
      ['What it shows', 'Plaque'],
    ] as const) {
      await user.type(await screen.findByRole('textbox', { name }), value);
    }
    await user.click(screen.getByRole('button', { name: 'Add box' }));
    await user.click(screen.getByRole('button', { name: 'Remove yours 1: Plaque' }));
    expect(screen.queryByRole('list', { name: /Your boxes/ })).toBeNull();
  });

  it('shows the API’s refusal as it says it', async () => {
    const { user } = renderConsole(`/clinic/reviews/${reviewId}`, {
      [`GET ${clinicReviewPaths.one(reviewId)}`]: () =>
        json({ ...waiting, images: [{ ...waiting.images[0], ai_boxes: [] }] }),
      [`PUT ${clinicReviewPaths.one(reviewId)}`]: () =>
        problemResponse(409, 'This review has already been answered.'),
    });
    await user.type(
      await screen.findByRole('textbox', { name: 'Report for the patient' }),
      'Nothing to worry about.',
    );
    await user.click(screen.getByRole('button', { name: 'Send the answer' }));
    expect(await screen.findByText('This review has already been answered.')).toBeInTheDocument();
  });

  it('tells an administrator that only a practitioner answers', async () => {
    open(`/clinic/reviews/${reviewId}`, {
      ...testStaff,
      role: 'clinic_admin',
      practitioner_id: null,
    });
    expect(
      await screen.findByText('Only a practitioner of the practice answers a review.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send the answer' })).toBeNull();
  });
});
