import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { appointmentPaths, type Appointment } from '@dental/contracts';
import { listPageSize } from '#web/lib/list-pages';
import { sessionStore } from '#web/lib/session-store';
import { json, problemResponse, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';
import { lastMonthToToday, todayToNextMonth } from './appointment-list-page';

const range = todayToNextMonth();
const listPath = `${appointmentPaths.list}?order=upcoming&startDate=${range.startDate}&endDate=${range.endDate}&limit=${String(listPageSize)}`;

const checkUp: Appointment = {
  id: '3b2e8c40-9d63-4e30-9c74-5d9f4ab13c23',
  appointment_date: `${range.startDate}T23:00:00.000Z`,
  time_zone: 'UTC',
  note: 'Check-up with Dr. Lee',
  email_alert: false,
  sms_alert: false,
  push_alert: false,
  alert_before: [],
};

async function openList(answer: () => Response) {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  stubFetch({ 'GET /api/account/': () => json(testAccount), [`GET ${listPath}`]: answer });
  renderRoute('/appointments');
  await screen.findByRole('heading', { name: 'Appointments Remind & History', level: 1 });
}

describe('Appointments list', () => {
  it('shows every appointment as an open card, with its note and actions', async () => {
    await openList(() => json([checkUp, { ...checkUp, id: crypto.randomUUID(), note: '' }]));

    const cards = await screen.findAllByRole('article');
    expect(cards).toHaveLength(2);
    expect(cards[0]).toHaveTextContent('Check-up with Dr. Lee');
    expect(screen.getAllByRole('button', { name: 'Delete' })).toHaveLength(2);
  });

  it('says when the period holds no appointment', async () => {
    await openList(() => json([]));
    expect(await screen.findByText('No appointments in this period.')).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('shows the server’s refusal instead of the list', async () => {
    await openList(() => problemResponse(400, 'endDate must be a date written YYYY-MM-DD.'));
    expect(
      await screen.findByText('endDate must be a date written YYYY-MM-DD.'),
    ).toBeInTheDocument();
    expect(screen.queryByText('No appointments in this period.')).not.toBeInTheDocument();
  });

  it('shows the next page below the first with Load more, until the API has no more', async () => {
    const next = `${listPath}&offset=${String(listPageSize)}`;
    // Pages of two keep the list short; the client follows whatever link the API gives.
    const firstPage = [checkUp, { ...checkUp, id: crypto.randomUUID() }];
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    const api = stubFetch({
      'GET /api/account/': () => json(testAccount),
      [`GET ${listPath}`]: () => {
        const response = json(firstPage);
        response.headers.set('Link', `<${next}>; rel="next"`);
        return response;
      },
      [`GET ${next}`]: () => json([{ ...checkUp, id: crypto.randomUUID(), note: 'Cleaning' }]),
    });
    const { user } = renderRoute('/appointments');

    await user.click(await screen.findByRole('button', { name: 'Load more appointments' }));

    await screen.findByText('Cleaning');
    expect(screen.getAllByRole('article')).toHaveLength(3);
    expect(screen.getAllByRole('article').at(-1)).toHaveTextContent('Cleaning');
    expect(
      screen.queryByRole('button', { name: 'Load more appointments' }),
    ).not.toBeInTheDocument();
    expect(api.to(`GET ${next}`)).toHaveLength(1);
  });
});

describe('Appointments outside the list’s dates', () => {
  it('says how many earlier past appointments Previous’s month hides; Show all lists them', async () => {
    const previous = lastMonthToToday();
    const dates = `startDate=${previous.startDate}&endDate=${previous.endDate}`;
    const lastYear: Appointment = { ...checkUp, appointment_date: '2025-11-03T15:00:00.000Z' };
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    const api = stubFetch({
      'GET /api/account/': () => json(testAccount),
      [`GET ${listPath}`]: () => json([]),
      [`GET ${appointmentPaths.outsideRange}?order=upcoming&startDate=${range.startDate}&endDate=${range.endDate}`]:
        () => json({ before: 0, after: 0 }),
      [`GET ${appointmentPaths.list}?order=previous&${dates}&limit=${String(listPageSize)}`]: () =>
        json([]),
      [`GET ${appointmentPaths.outsideRange}?order=previous&${dates}`]: () =>
        json({ before: 2, after: 0 }),
      [`GET ${appointmentPaths.list}?order=previous&limit=${String(listPageSize)}`]: () =>
        json([lastYear]),
    });
    const { user } = renderRoute('/appointments');
    expect(await screen.findByText('No appointments in this period.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show all' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Previous' }));
    expect(
      await screen.findByText('2 earlier appointments are outside these dates —'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show all' }));

    expect(await screen.findByText('Check-up with Dr. Lee')).toBeInTheDocument();
    expect(
      api.to(`GET ${appointmentPaths.list}?order=previous&limit=${String(listPageSize)}`),
    ).toHaveLength(1);
  });
});
