import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { reportPaths, type ReadyReports } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { json, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

function home(ready: ReadyReports) {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  stubFetch({
    'GET /api/account/': () => json(testAccount),
    [`GET ${reportPaths.ready}`]: () => json(ready),
  });
  renderRoute('/');
}

describe('Home’s notice of a ready report', () => {
  it('names the kind of the ready report and leads to Reports', async () => {
    home({ results: [{ id: '0b7c3a52-4f1e-4d2a-9c6b-8e5f1a2d3c4b', kind: 'summary' }] });
    const notice = await screen.findByRole('link', {
      name: 'Your receipts and history summary report is ready. Open Reports to download',
    });
    expect(notice).toHaveAttribute('href', '/reports');
  });

  it('counts several ready reports', async () => {
    home({
      results: [
        { id: '0b7c3a52-4f1e-4d2a-9c6b-8e5f1a2d3c4b', kind: 'summary' },
        { id: '1c8d4b63-5a2f-4e3b-8d7c-9f6a2b3e4d5c', kind: 'treatment_history' },
      ],
    });
    expect(await screen.findByRole('link', { name: /^2 reports are ready/ })).toHaveAttribute(
      'href',
      '/reports',
    );
  });

  it('shows nothing when no report is waiting to be downloaded', async () => {
    home({ results: [] });
    await screen.findByRole('heading', { name: 'You are ready to go!', level: 1 });
    // The call has answered once the Messages card is drawn beside it.
    await screen.findByRole('link', { name: /Messages with the practice/ });
    expect(screen.queryByRole('link', { name: /ready/ })).toBeNull();
  });
});
