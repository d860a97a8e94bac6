import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { medicalRecordPaths, type MedicalRecord } from '@dental/contracts';
import { monthAroundToday } from '#web/components/date-range-filter';
import { listPageSize } from '#web/lib/list-pages';
import { sessionStore } from '#web/lib/session-store';
import { json, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

// The record list's default month hides older records: it says how many, and 'Show all' widens the
// dates to everything for the rest of the session (docs/decisions/older-items-hint.md).
const range = monthAroundToday();
const dates = `startDate=${range.startDate}&endDate=${range.endDate}`;
const monthList = `${medicalRecordPaths.list}?sequence=descending&${dates}&limit=${String(listPageSize)}`;
const everyList = `${medicalRecordPaths.list}?sequence=descending&limit=${String(listPageSize)}`;
const monthOutside = `${medicalRecordPaths.outsideRange}?${dates}`;

const sixWeeksAgo: MedicalRecord = {
  id: '5c3f9d51-0e74-4f41-8d85-6e0a5bc24d34',
  title: 'Root canal invoice',
  record_date: '2026-01-02',
  note: '',
  medical_files: [],
};

function openRecords() {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  const api = stubFetch({
    'GET /api/account/': () => json(testAccount),
    [`GET ${monthList}`]: () => json([]),
    [`GET ${monthOutside}`]: () => json({ before: 3, after: 0 }),
    [`GET ${everyList}`]: () => json([sixWeeksAgo]),
  });
  return { api, ...renderRoute('/medical-records') };
}

describe('Records outside the list’s dates', () => {
  it('says how many older records the month hides, and Show all lists them', async () => {
    const { api, user } = openRecords();
    expect(await screen.findByText('No records in this period.')).toBeInTheDocument();
    expect(
      await screen.findByText('3 older records are outside these dates —'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Show all' }));

    expect(await screen.findByRole('button', { name: /^Root canal invoice/ })).toBeInTheDocument();
    expect(screen.getByLabelText('From')).toHaveValue('');
    expect(screen.getByLabelText('To')).toHaveValue('');
    expect(screen.queryByRole('button', { name: 'Show all' })).not.toBeInTheDocument();
    // Both ends open: nothing can lie outside, so the count is not asked again.
    expect(api.to(`GET ${monthOutside}`)).toHaveLength(1);
  });

  it('opens on the dates last chosen in the session, and on the month after signing out', async () => {
    const first = openRecords();
    await first.user.click(await screen.findByRole('button', { name: 'Show all' }));
    await screen.findByRole('button', { name: /^Root canal invoice/ });
    first.unmount();

    const again = openRecords();
    expect(await screen.findByRole('button', { name: /^Root canal invoice/ })).toBeInTheDocument();
    expect(again.api.to(`GET ${monthList}`)).toHaveLength(0);
    again.unmount();

    sessionStore.clear();
    const next = openRecords();
    expect(
      await screen.findByText('3 older records are outside these dates —'),
    ).toBeInTheDocument();
    expect(next.api.to(`GET ${everyList}`)).toHaveLength(0);
  });
});
