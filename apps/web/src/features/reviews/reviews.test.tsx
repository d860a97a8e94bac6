import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { reviewPaths, type Review, type ReviewList } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { json, problemResponse, stubFetch, testAccount, type Handler } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const waitingId = '0b7c3a52-4f1e-4d2a-9c6b-8e5f1a2d3c4b';
const answeredId = 'a1e2c3d4-5b6a-4c7d-8e9f-0a1b2c3d4e5f';
const resultId = 'c9d8e7f6-a5b4-4c3d-9e2f-1a0b9c8d7e6f';

const waiting: Review = {
  id: waitingId,
  status: 'waiting',
  question: 'Is this dark spot a cavity?',
  photos: [],
  dental_ai: resultId,
  images: [{ photo: null, image_url: '/files/result.png' }],
  report: null,
  findings: [],
  reviewer: null,
  created_at: '2026-11-29T09:00:00Z',
  answered_at: null,
};

const answered: Review = {
  ...waiting,
  id: answeredId,
  status: 'answered',
  question: 'Should I worry <b>about</b> this?',
  report: 'One small cavity.\n<img src=x onerror="alert(1)">',
  findings: [
    { box: [10, 10, 40, 40], label: 'Caries', verdict: 'confirmed', ai_box: 0, photo: null },
    { box: [50, 50, 80, 80], label: 'Caries', verdict: 'rejected', ai_box: 1, photo: null },
    { box: [60, 10, 90, 40], label: 'Caries', verdict: 'rejected', ai_box: 2, photo: null },
    { box: [60, 60, 90, 90], label: 'Plaque', verdict: 'rejected', ai_box: 3, photo: null },
    { box: [5, 60, 30, 90], label: 'Calculus', verdict: 'added', ai_box: null, photo: null },
  ],
  reviewer: { name: 'Dr. Ada Lovelace' },
  answered_at: '2026-11-30T10:00:00Z',
};

const uses = (used: number): ReviewList['uses'] => ({ plan: 'Silver', used, allowed: 1 });

function open(path: string, handlers: Record<string, Handler> = {}, used = 0) {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  const api = stubFetch({
    'GET /api/account/': () => json(testAccount),
    [`GET ${reviewPaths.root}`]: () => json({ results: [waiting, answered], uses: uses(used) }),
    [`GET ${reviewPaths.one(answeredId)}`]: () => json(answered),
    [`GET ${reviewPaths.consent}`]: () => json({ granted_at: null }),
    ...handlers,
  });
  return { api, ...renderRoute(path) };
}

describe('Dentist reviews', () => {
  it('lists the waiting and the answered reviews and the reviews left on the plan', async () => {
    open('/reviews');
    const waitingList = await screen.findByRole('region', { name: 'Waiting for a dentist' });
    expect(within(waitingList).getByRole('link').textContent).toBe(waiting.question);
    const answeredList = screen.getByRole('region', { name: 'Answered' });
    expect(within(answeredList).getByText(/by Dr\. Ada Lovelace/)).toBeInTheDocument();
    expect(screen.getByText(/1 of 1 dentist review left on your Silver plan/)).toBeInTheDocument();
  });

  it('shows the report as text, the confirmed and added boxes, and the AI marks not confirmed', async () => {
    open(`/reviews/${answeredId}`);
    const report = await screen.findByText(
      (_, element) => element?.textContent === answered.report,
    );
    expect(report.querySelector('img')).toBeNull();
    expect(screen.getByText(/Dr\. Ada Lovelace, 2026-11-30/)).toBeInTheDocument();
    const image = screen.getByRole('img', { name: 'Your image with 2 marked areas' });
    // The boxes are drawn in the image's own pixels, known once it has loaded.
    Object.defineProperty(image, 'naturalWidth', { value: 100 });
    Object.defineProperty(image, 'naturalHeight', { value: 100 });
    fireEvent.load(image);
    await waitFor(() => {
      expect(document.querySelectorAll('svg rect')).toHaveLength(2);
    });
    const legend = screen.getByRole('list', { name: /What the boxes on your image show/ });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Caries (red box): an area the Dental AI marked, confirmed by the dentist',
      'Calculus (green box): marked by the dentist',
    ]);
    // One line per label, however many of its marks were not confirmed.
    expect(
      screen
        .getAllByText(/not confirmed by the dentist/)
        .map((item) => item.textContent.replace(/\s+/g, ' ')),
    ).toEqual([
      'Caries: 2 areas marked by the Dental AI, not confirmed by the dentist (not drawn above)',
      'Plaque: marked by the Dental AI, not confirmed by the dentist (not drawn above)',
    ]);
  });

  it('asks about a Dental AI result and opens the new review', async () => {
    const { api } = open(`/reviews/new?dental_ai=${resultId}`, {
      [`GET /api/dental-ai/${resultId}/`]: () => json({}, 404),
      [`POST ${reviewPaths.root}`]: () => json({ id: waitingId }, 201),
      [`GET ${reviewPaths.one(waitingId)}`]: () => json(waiting),
    });
    await userEvent.type(await screen.findByLabelText(/Your question/), 'Is it a cavity?');
    await userEvent.click(screen.getByRole('button', { name: 'Ask a dentist' }));
    expect(await screen.findByText(/has not answered yet/)).toBeInTheDocument();
    expect(api.to(`POST ${reviewPaths.root}`)[0]?.body).toEqual({
      dental_ai: resultId,
      question: 'Is it a cavity?',
    });
  });

  it('says plainly when no reviews are left', async () => {
    const refusal =
      'You have used all 1 photo reviews of your Silver plan for this membership year. The Gold plan raises it to 5 a year.';
    open(
      `/reviews/new?photo=${waitingId}`,
      {
        [`GET /api/oral-photo/${waitingId}/`]: () => json({}, 404),
        [`POST ${reviewPaths.root}`]: () => problemResponse(422, refusal),
      },
      1,
    );
    expect(await screen.findByText('No reviews left this year')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ask a dentist' })).toBeDisabled();
  });

  it('shows the API’s 422 when the last review went meanwhile', async () => {
    const refusal =
      'You have used all 1 photo reviews of your Silver plan for this membership year.';
    open(
      `/reviews/new?photo=${waitingId}`,
      {
        [`GET /api/oral-photo/${waitingId}/`]: () => json({}, 404),
        [`POST ${reviewPaths.root}`]: () => problemResponse(422, refusal),
      },
      0,
    );
    await userEvent.type(await screen.findByLabelText(/Your question/), 'Is it a cavity?');
    await userEvent.click(screen.getByRole('button', { name: 'Ask a dentist' }));
    expect(await screen.findByText(refusal)).toBeInTheDocument();
  });

  it('keeps the consent off by default, and gives and withdraws it', async () => {
    const { api } = open('/reviews', {
      [`PUT ${reviewPaths.consent}`]: () => json({ granted_at: '2026-11-29T09:00:00Z' }),
      [`DELETE ${reviewPaths.consent}`]: () => new Response(null, { status: 204 }),
    });
    const consent = await screen.findByRole('switch', {
      name: 'Let my reviewed images help improve the Dental AI',
    });
    await waitFor(() => {
      expect(consent).toBeEnabled();
    });
    expect(consent).not.toBeChecked();
    await userEvent.click(consent);
    await waitFor(() => {
      expect(consent).toBeChecked();
    });
    expect(screen.getByText('Allowed since 2026-11-29.')).toBeInTheDocument();
    await waitFor(() => {
      expect(consent).toBeEnabled();
    });
    await userEvent.click(consent);
    await waitFor(() => {
      expect(consent).not.toBeChecked();
    });
    expect(api.to(`PUT ${reviewPaths.consent}`)).toHaveLength(1);
    expect(api.to(`DELETE ${reviewPaths.consent}`)).toHaveLength(1);
  });
});
