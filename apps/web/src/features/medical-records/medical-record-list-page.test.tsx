import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { medicalRecordPaths, type MedicalRecord } from '@dental/contracts';
import { monthAroundToday } from '#web/components/date-range-filter';
import { listPageSize } from '#web/lib/list-pages';
import { sessionStore } from '#web/lib/session-store';
import { json, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const range = monthAroundToday();
const pagePath = (sequence: string) =>
  `${medicalRecordPaths.list}?sequence=${sequence}&startDate=${range.startDate}&endDate=${range.endDate}&limit=${String(listPageSize)}`;

function recordsNamed(prefix: string, count: number): MedicalRecord[] {
  return Array.from({ length: count }, (_, at) => ({
    id: crypto.randomUUID(),
    title: `${prefix} ${String(at + 1)}`,
    record_date: range.startDate,
    note: '',
    medical_files: [],
  }));
}

describe('Medical or Ins. Records Storage list, a page at a time', () => {
  // Pages of two keep the list short; the client follows whatever link the API gives.
  it('keeps the order in the first page and follows the Link for the next', async () => {
    const ascending = pagePath('ascending');
    const next = `${ascending}&offset=${String(listPageSize)}`;
    sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
    const api = stubFetch({
      'GET /api/account/': () => json(testAccount),
      [`GET ${pagePath('descending')}`]: () => json(recordsNamed('Receipt', 2)),
      [`GET ${ascending}`]: () => {
        const response = json(recordsNamed('Invoice', 2));
        response.headers.set('Link', `<${next}>; rel="next"`);
        return response;
      },
      [`GET ${next}`]: () => json(recordsNamed('X-ray report', 1)),
    });
    const { user } = renderRoute('/medical-records');
    expect(await screen.findByRole('button', { name: /^Receipt 2/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more records' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Ascending' }));
    await user.click(await screen.findByRole('button', { name: 'Load more records' }));

    expect(await screen.findByRole('button', { name: /^X-ray report 1/ })).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Invoice / })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more records' })).not.toBeInTheDocument();
    expect(api.to(`GET ${next}`)).toHaveLength(1);
  });
});
