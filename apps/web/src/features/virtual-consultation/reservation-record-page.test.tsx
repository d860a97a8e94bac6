import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Complaint, Reservation, ReservationDetail } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { deferred, json, stubFetch, testAccount, testConfig } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const upcoming: Reservation = {
  id: '5d0c7a4e-8f61-4c1e-9a52-3b7d2e9f1a01',
  timezone: 'Asia/Tokyo',
  reservation_time: '2026-03-02T23:30:00.000Z',
  doctor_aggregation: { doctor: { name: 'Dr. Kenji Sato' } },
  answer: ['6a1f2b3c-4d5e-4f60-8a71-b2c3d4e5f601', '6a1f2b3c-4d5e-4f60-8a71-b2c3d4e5f602'],
};

const upcomingDetail: ReservationDetail = {
  ...upcoming,
  upcoming: true,
  complaint_id: null,
  dental_ai: [],
  answers: [
    {
      id: '6a1f2b3c-4d5e-4f60-8a71-b2c3d4e5f601',
      answer: 'A chipped tooth',
      form_and_questions: { question: { question_label: 'What brings you here?' }, order: 1 },
    },
    {
      id: '6a1f2b3c-4d5e-4f60-8a71-b2c3d4e5f602',
      answer: 'No allergies',
      form_and_questions: { question: { question_label: 'Any allergies?' }, order: 2 },
    },
  ],
};

const past: Reservation = {
  id: '7e2d8b5f-9a72-4d2f-8b63-4c8e3fa02b12',
  timezone: 'Europe/Madrid',
  reservation_time: '2025-11-20T09:00:00.000Z',
  doctor_aggregation: { doctor: { name: 'Dr. Sofia Marquez' } },
  answer: [],
};

const complaint: Complaint = {
  id: '8f3e9c60-ab83-4e30-9c74-5d9f4ab13c23',
  doctor_condition: 'Mild gingivitis',
  doctor_summary: 'Floss daily.',
  doctor_return: 'In 6 months',
  doctor_images: '/api/files/a.png?sig=1||/api/files/b.png?sig=2',
};

function signIn() {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
}

describe('Virtual Consultation hub', () => {
  it('opens our booking page, or the configured external page in a new tab', async () => {
    signIn();
    stubFetch({ 'GET /api/account/': () => json(testAccount) });
    const { unmount } = renderRoute('/virtual-consultation');
    expect(await screen.findByRole('link', { name: 'Reservation' })).toHaveAttribute(
      'href',
      '/virtual-consultation/book',
    );
    expect(screen.getByRole('link', { name: 'Reservation Record' })).toHaveAttribute(
      'href',
      '/virtual-consultation/reservation-record',
    );
    unmount();

    stubFetch({
      'GET /api/account/': () => json(testAccount),
      'GET /api/config/': () =>
        json({ ...testConfig, reservation_url: 'https://book.example/consult' }),
    });
    renderRoute('/virtual-consultation');
    const external = await screen.findByRole('link', { name: 'Reservation' });
    expect(external).toHaveAttribute('href', 'https://book.example/consult');
    expect(external).toHaveAttribute('target', '_blank');
  });
});

describe('Reservation History', () => {
  it('shows cards in the booked zone, reloads on toggle, and shows answers on first open', async () => {
    signIn();
    const api = stubFetch({
      'GET /api/account/': () => json(testAccount),
      'GET /api/reservation/?period=future': () => json([upcoming]),
      'GET /api/reservation/?period=history': () => json([past]),
      [`GET /api/reservation/${upcoming.id}/`]: () => json(upcomingDetail),
    });
    const { user } = renderRoute('/virtual-consultation/reservation-record');
    expect(await screen.findByRole('heading', { name: 'Reservation History' })).toBeInTheDocument();
    const card = await screen.findByRole('button', { name: /Dr\. Kenji Sato/ });
    // 23:30 UTC is 08:30 the next morning in Tokyo.
    expect(card).toHaveTextContent('Asia/Tokyo');
    expect(card).toHaveTextContent('2026-03-03 08:30');

    await user.click(card);
    const modal = await screen.findByRole('dialog', { name: 'Reservation Information' });
    expect(await within(modal).findByText('What brings you here?')).toBeInTheDocument();
    expect(within(modal).getByText('A chipped tooth')).toBeInTheDocument();
    expect(within(modal).getByText('Any allergies?')).toBeInTheDocument();
    expect(api.requests.filter((r) => r.path.startsWith('/api/form/answer/'))).toEqual([]);
    expect(within(modal).getByRole('button', { name: 'Cancel Reservation' })).toBeEnabled();
    await user.click(within(modal).getByRole('button', { name: 'Close' }));

    await user.click(screen.getByText('Consultation record'));
    expect(await screen.findByRole('button', { name: /Dr\. Sofia Marquez/ })).toHaveTextContent(
      '2025-11-20 10:00',
    );
    expect(api.to('GET /api/reservation/?period=history')).toHaveLength(1);
    await user.click(screen.getByText('Current Reservation'));
    await screen.findByRole('button', { name: /Dr\. Kenji Sato/ });
    expect(api.to('GET /api/reservation/?period=future')).toHaveLength(2);
  });

  it('cancels: the button spins and is disabled, then the modal closes and the card is gone', async () => {
    signIn();
    const answer = deferred<Response>();
    let cancelled = false;
    stubFetch({
      'GET /api/account/': () => json(testAccount),
      'GET /api/reservation/?period=future': () => json(cancelled ? [] : [upcoming]),
      [`GET /api/reservation/${upcoming.id}/`]: () => json(upcomingDetail),
      [`DELETE /api/reservation/${upcoming.id}/`]: () => {
        cancelled = true;
        return answer.promise;
      },
    });
    const { user } = renderRoute('/virtual-consultation/reservation-record');
    await user.click(await screen.findByRole('button', { name: /Dr\. Kenji Sato/ }));
    const modal = await screen.findByRole('dialog', { name: 'Reservation Information' });
    await user.click(await within(modal).findByRole('button', { name: 'Cancel Reservation' }));
    const cancel = within(modal).getByRole('button', { name: 'Yes, cancel it' });
    await user.click(cancel);
    expect(cancel).toBeDisabled();
    expect(cancel).toHaveAttribute('data-loading', 'true');

    answer.resolve(new Response(null, { status: 204 }));
    expect(await screen.findByText('You have no upcoming reservations.')).toBeInTheDocument();
    await waitFor(() => {
      expect(screen.queryByRole('dialog', { name: 'Reservation Information' })).toBeNull();
    });
  });

  it('shows the doctor summary of a past consultation, with no Cancel Reservation', async () => {
    signIn();
    stubFetch({
      'GET /api/account/': () => json(testAccount),
      'GET /api/reservation/?period=future': () => json([]),
      'GET /api/reservation/?period=history': () => json([past]),
      [`GET /api/reservation/${past.id}/`]: () =>
        json({ ...past, upcoming: false, complaint_id: complaint.id, answers: [], dental_ai: [] }),
      [`GET /api/complaint/${complaint.id}/`]: () => json(complaint),
    });
    const { user } = renderRoute('/virtual-consultation/reservation-record');
    await user.click(await screen.findByText('Consultation record'));
    await user.click(await screen.findByRole('button', { name: /Dr\. Sofia Marquez/ }));
    const modal = await screen.findByRole('dialog', { name: 'Reservation Information' });
    expect(await within(modal).findByText('Mild gingivitis')).toBeInTheDocument();
    for (const label of ['Condition', 'Suggestion', 'Recommended return visit time']) {
      expect(within(modal).getByText(label)).toBeInTheDocument();
    }
    expect(within(modal).getByText('In 6 months')).toBeInTheDocument();
    expect(
      within(modal)
        .getAllByRole('img')
        .map((image) => image.getAttribute('src')),
    ).toEqual(['/api/files/a.png?sig=1', '/api/files/b.png?sig=2']);
    expect(within(modal).queryByRole('button', { name: 'Cancel Reservation' })).toBeNull();
  });
});
