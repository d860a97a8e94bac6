import { accountPaths, appointmentPaths, medicalRecordPaths, tokenPair } from '@dental/contracts';
import type { APIRequestContext } from '@playwright/test';
import { localDate } from './dates';
import { expect, type TestAccount } from './fixtures';

const day = 24 * 3600 * 1000;
export const daysAgo = (days: number) => new Date(Date.now() - days * day);

/** A record dated six weeks ago and an appointment 45 days ago, stored as the member. */
export async function storeOlderEntries(request: APIRequestContext, account: TestAccount) {
  const login = await request.post(accountPaths.login, {
    data: { login_type: 'native', email: account.email, password: account.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const headers = { authorization: `Bearer ${tokenPair.parse(await login.json()).access}` };
  const record = await request.post(medicalRecordPaths.list, {
    headers,
    data: { title: 'Crown invoice', record_date: localDate(daysAgo(42)), medical_files: [] },
  });
  expect(record.status(), await record.text()).toBe(201);
  const when = daysAgo(45);
  when.setHours(10, 0, 0, 0);
  const appointment = await request.post(appointmentPaths.list, {
    headers,
    data: { appointment_date: when.toISOString(), note: 'Filling with Dr. Chen' },
  });
  expect(appointment.status(), await appointment.text()).toBe(201);
}
