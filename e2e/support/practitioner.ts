import type { APIRequestContext } from '@playwright/test';
import { clinicStaffPaths } from '@dental/contracts';
import { joinAsStaff, staffAccount, type StaffAccount } from './clinic-staff';
import { expect } from './fixtures';

/** A new practitioner of the shared e2e server's practice, invited by its first administrator,
 *  for journeys in which only a practitioner may act (answering a dentist's review): their
 *  account (with an access token and the authenticator's secret) and name. */
export async function practitionerAccess(
  request: APIRequestContext,
): Promise<StaffAccount & { name: string }> {
  const admin = await staffAccount(request);
  const id = Math.random().toString(36).slice(2, 8);
  const email = `dr-${id}@clinic.e2e.example`;
  const name = `Dr. Grace Hopper ${id}`;
  const invited = await request.post(clinicStaffPaths.staff, {
    headers: { authorization: `Bearer ${admin.access}` },
    data: { email, name, role: 'practitioner' },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  return { ...(await joinAsStaff(request, email)), name };
}
