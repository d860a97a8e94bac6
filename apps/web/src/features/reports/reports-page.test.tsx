import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { problemTypes, reportPaths, type Report, type ReportList } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { json, stubFetch, testAccount, typedProblem, type Handler } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const reportId = '0b7c3a52-4f1e-4d2a-9c6b-8e5f1a2d3c4b';

const running: Report = {
  id: reportId,
  kind: 'treatment_history',
  status: 'running',
  progress: 0.4,
  download_url: null,
  from: '2025-11-30',
  to: '2026-11-29',
  created_at: '2026-11-29T09:00:00Z',
  error: null,
};

const list = (results: Report[], summary = 4): ReportList => ({
  results,
  remaining: { treatment_history: 14, summary },
});

function open(handlers: Record<string, Handler> = {}) {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  const api = stubFetch({
    'GET /api/account/': () => json(testAccount),
    [`GET ${reportPaths.root}`]: () => json(list([running])),
    ...handlers,
  });
  return { api, ...renderRoute('/reports') };
}

describe('Reports', () => {
  it('shows what is left of each kind, and follows a report until it can be downloaded', async () => {
    let reads = 0;
    open({
      [`GET ${reportPaths.one(reportId)}`]: () => {
        reads += 1;
        return json(
          reads < 2
            ? { ...running, progress: 0.7 }
            : { ...running, status: 'done', progress: 1, download_url: '/api/files/r.pdf?sig=1' },
        );
      },
    });
    expect(
      await screen.findByRole('radio', { name: /Treatment history report \(14 left this year\)/ }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('radio', {
        name: /Receipts and history summary report \(4 left this year\)/,
      }),
    ).toBeInTheDocument();
    const reports = screen.getByRole('region', { name: 'Your reports' });
    expect(within(reports).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');
    const download = await within(reports).findByRole(
      'link',
      { name: 'Download' },
      { timeout: 5000 },
    );
    expect(download).toHaveAttribute('href', '/api/files/r.pdf?sig=1');
    expect(within(reports).getByText('Ready')).toBeInTheDocument();
    expect(within(reports).queryByRole('progressbar')).toBeNull();
  });

  it('sends the kind and period, and shows the plan’s refusal as the server words it', async () => {
    const refusal =
      'You have used all 5 receipts and history summary reports of your Gold plan for 2026. The Platinum plan raises it to 10 a year.';
    const { api } = open({
      [`GET ${reportPaths.root}`]: () => json(list([], 0)),
      [`POST ${reportPaths.root}`]: () => typedProblem(403, problemTypes.planLimitReached, refusal),
    });
    await userEvent.click(
      await screen.findByRole('radio', { name: /Receipts and history summary report/ }),
    );
    fireEvent.change(screen.getByLabelText(/From/), { target: { value: '2026-01-01' } });
    await userEvent.click(screen.getByRole('button', { name: 'Generate' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    await waitFor(() => {
      expect(api.to(`POST ${reportPaths.root}`)[0]?.body).toMatchObject({
        kind: 'summary',
        from: '2026-01-01',
      });
    });
  });
});
