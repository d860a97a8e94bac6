import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { medicalRecordPaths, type MedicalRecord } from '@dental/contracts';
import { monthAroundToday } from '#web/components/date-range-filter';
import { listPageSize } from '#web/lib/list-pages';
import { sessionStore } from '#web/lib/session-store';
import { json, problemResponse, stubFetch, testAccount } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const range = monthAroundToday();
const listPath = `${medicalRecordPaths.list}?sequence=descending&startDate=${range.startDate}&endDate=${range.endDate}&limit=${String(listPageSize)}`;
const deletePath = (record: MedicalRecord) => `DELETE ${medicalRecordPaths.one(record.id)}`;

const checkUp: MedicalRecord = {
  id: '5c2e8d1a-9b3f-4e6a-8d71-2f4b6c8e0a13',
  title: 'Yearly check-up',
  record_date: range.startDate,
  note: '',
  medical_files: [],
};

async function openRecord(handlers: Parameters<typeof stubFetch>[0]) {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  const api = stubFetch({
    'GET /api/account/': () => json(testAccount),
    [`GET ${medicalRecordPaths.one(checkUp.id)}`]: () => json(checkUp),
    ...handlers,
  });
  const view = renderRoute(`/medical-records/${checkUp.id}`);
  await screen.findByDisplayValue('Yearly check-up');
  return { api, ...view };
}

async function confirmDelete(user: Awaited<ReturnType<typeof openRecord>>['user']) {
  await user.click(screen.getByRole('button', { name: 'Delete' }));
  const dialog = await screen.findByRole('dialog', { name: 'Delete record' });
  expect(
    within(dialog).getByText(
      'Do you really want to delete this record and its files? This cannot be undone.',
    ),
  ).toBeInTheDocument();
  await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
  return dialog;
}

describe('Medical record detail', () => {
  it('goes back to the record list once the record is deleted', async () => {
    const { api, user, router } = await openRecord({
      [deletePath(checkUp)]: () => new Response(null, { status: 204 }),
      [`GET ${listPath}`]: () => json([]),
    });
    await confirmDelete(user);

    expect(
      await screen.findByRole('heading', { name: 'Medical or Ins. Records Storage', level: 1 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/medical-records');
    expect(api.to(deletePath(checkUp))).toHaveLength(1);
  });

  it('tells a refused delete in the dialog and stays on the record', async () => {
    const { user, router } = await openRecord({
      [deletePath(checkUp)]: () =>
        problemResponse(503, 'Storage is unavailable. Please try again later.'),
    });
    const dialog = await confirmDelete(user);

    expect(
      await within(dialog).findByText('Storage is unavailable. Please try again later.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Delete' })).toBeEnabled();
    expect(router.state.location.pathname).toBe(`/medical-records/${checkUp.id}`);
  });

  it('saves with a labelled Save button and goes Back to the list without saving', async () => {
    const { api, user, router } = await openRecord({
      [`GET ${listPath}`]: () => json([]),
    });
    // The pencil alone was not understood (docs/decisions/form-actions.md): the button shows its
    // word.
    expect(screen.getByRole('button', { name: 'Save' })).toHaveTextContent('Save');
    await user.type(screen.getByRole('textbox', { name: /Title/ }), ' changed');
    await user.click(screen.getByRole('button', { name: 'Back' }));

    expect(
      await screen.findByRole('heading', { name: 'Medical or Ins. Records Storage', level: 1 }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/medical-records');
    expect(api.to(`PUT ${medicalRecordPaths.one(checkUp.id)}`)).toHaveLength(0);
  });
});
