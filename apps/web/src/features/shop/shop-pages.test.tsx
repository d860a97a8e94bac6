import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PointsAnswer, Supplier } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { json, problemResponse, stubFetch, testAccount, type Handler } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const supplierId = '5b0f3c2e-1d4a-5e6f-8a7b-9c0d1e2f3a4b';
const orderId = '0e7f1c2d-3b4a-4c5d-8e6f-7a8b9c0d1e2f';

const toothbrushes: Supplier = {
  id: supplierId,
  title: 'Manual Toothbrushes',
  cover_image: '/c.svg',
  cover_alt: 'A toothbrush',
  content_markdown: `/api/oral-supplier/${supplierId}/markdown/`,
  buy_url: null,
  products: [{ id: 'compact-head-toothbrush', name: 'Compact-head toothbrush', price_cents: 299 }],
};

const points = (answer: Partial<PointsAnswer>): PointsAnswer => ({
  points: 500,
  points_expired_at: '2026-12-31T23:59:59.999Z',
  ledger: [],
  ...answer,
});

function signedIn(handlers: Record<string, Handler>) {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  return stubFetch({ 'GET /api/account/': () => json(testAccount), ...handlers });
}

describe('the order form', () => {
  it('caps the points at half the price, sends the order and shows a refusal under Points', async () => {
    const api = signedIn({
      [`GET /api/oral-supplier/${supplierId}/`]: () => json(toothbrushes),
      'GET /api/points/': () => json(points({})),
      'POST /api/orders/': () =>
        problemResponse(422, 'Points pay at most half of an order’s price.', {
          points: ['Use at most 149 points on this order.'],
        }),
    });
    const user = userEvent.setup({ delay: null });
    renderRoute(`/oral-supplier/${supplierId}/order`);
    expect(
      await screen.findByText(
        '100 points = $1. Points pay at most half of the price. You have 500 points; you can use up to 149 points here.',
      ),
    ).toBeInTheDocument();
    await user.type(screen.getByLabelText('Full name', { exact: false }), 'Ana Member');
    await user.type(screen.getByLabelText('Street address', { exact: false }), '1 Market Street');
    await user.type(screen.getByLabelText('City', { exact: false }), 'San Francisco');
    await user.type(screen.getByLabelText('State', { exact: false }), 'CA');
    await user.type(screen.getByLabelText('ZIP code', { exact: false }), '94105');
    const pointsField = screen.getByLabelText('Points to use');
    await user.clear(pointsField);
    await user.type(pointsField, '149');
    expect(screen.getByText('$1.50')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue to payment' }));
    expect(await screen.findByText('Use at most 149 points on this order.')).toBeInTheDocument();
    expect(api.to('POST /api/orders/')[0]?.body).toEqual({
      supplier_id: supplierId,
      product_id: 'compact-head-toothbrush',
      quantity: 1,
      points: 149,
      shipping: {
        name: 'Ana Member',
        line1: '1 Market Street',
        line2: '',
        city: 'San Francisco',
        state: 'CA',
        postal_code: '94105',
      },
    });
  });
});

describe('the Points screen', () => {
  it('lists every change in words, with an order’s change linking to the order', async () => {
    signedIn({
      'GET /api/points/': () =>
        json(
          points({
            points: 0,
            ledger: [
              {
                id: '1b6f1c2d-3b4a-4c5d-8e6f-7a8b9c0d1e21',
                kind: 'expired',
                points: -2500,
                balance: 0,
                plan: null,
                order_id: null,
                at: '2027-01-01T00:00:00.000Z',
              },
              {
                id: '1b6f1c2d-3b4a-4c5d-8e6f-7a8b9c0d1e22',
                kind: 'spent',
                points: -1000,
                balance: 2500,
                plan: null,
                order_id: orderId,
                at: '2026-12-01T10:00:00.000Z',
              },
              {
                id: '1b6f1c2d-3b4a-4c5d-8e6f-7a8b9c0d1e23',
                kind: 'granted',
                points: 3000,
                balance: 3500,
                plan: 'Gold',
                order_id: null,
                at: '2026-11-01T10:00:00.000Z',
              },
            ],
          }),
        ),
    });
    renderRoute('/account/points');
    const table = await screen.findByRole('table', {
      name: 'Every change to your points, newest first',
    });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Expired at the end of the year−2,5000');
    expect(rows[2]).toHaveTextContent('Used on an order−1,0002,500');
    expect(within(table).getByRole('link', { name: 'Used on an order' })).toHaveAttribute(
      'href',
      `/orders/${orderId}`,
    );
    expect(rows[3]).toHaveTextContent('Gold bonus+3,0003,500');
  });
});
