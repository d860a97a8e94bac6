import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Receipt } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { json, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const gold: Receipt = {
  id: '5a0f3c1e-8d2b-4c6a-9e7f-1b2c3d4e5f60',
  number: 'DC-2026-000123',
  kind: 'membership',
  description: 'Gold membership, 1 year',
  amount_cents: 2999,
  currency: 'USD',
  paid_at: '2026-11-29T10:15:00.000Z',
  card_brand: 'visa',
  card_last4: '4242',
  download_url: '/api/receipts/m/r/pdf/?exp=1&type=application%2Fpdf&disp=attachment&sig=s',
};

function openReceipts(results: Receipt[]) {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  stubFetch({
    'GET /api/account/': () => json(testAccount),
    'GET /api/receipts/': () => json({ results }),
  });
  renderRoute('/account/receipts');
}

describe('Receipts', () => {
  it('lists each receipt with its date, what was bought, amount, number and PDF link', async () => {
    openReceipts([
      gold,
      { ...gold, id: gold.id.replace('5a', '6b'), card_brand: null, card_last4: null },
    ]);
    const list = await screen.findByRole('list', { name: 'Your receipts, newest first' });
    const [first, second] = within(list).getAllByRole('listitem');
    if (first === undefined || second === undefined) throw new Error('two receipts expected');
    const card = within(first);
    expect(card.getByText('Gold membership, 1 year')).toBeInTheDocument();
    expect(card.getByText('$29.99 USD')).toBeInTheDocument();
    expect(first).toHaveTextContent('Paid 2026-11-29 with Visa •••• 4242');
    expect(card.getByText('Receipt number DC-2026-000123')).toBeInTheDocument();
    expect(
      card.getByRole('link', { name: 'Download PDF of receipt DC-2026-000123' }),
    ).toHaveAttribute('href', gold.download_url);
    // Paid by other means than a card: no card is named.
    expect(second).toHaveTextContent(/Paid 2026-11-29Receipt number/);
  });

  it('says how a receipt comes to be when there is none', async () => {
    openReceipts([]);
    expect(await screen.findByText(/No payments yet\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Membership' })).toHaveAttribute('href', '/membership');
  });
});
