import type { APIRequestContext } from '@playwright/test';
import { clinicStaffPaths } from '@dental/contracts';
import { joinAsStaff, staffAccount } from './clinic-staff';
import { expect } from './fixtures';

/** A new practitioner of the shared e2e server's practice, invited by its first administrator,
 *  for journeys in which only a practitioner may act (answering a dentist's review): their name
 *  and access token. */
export async function practitionerAccess(
  request: APIRequestContext,
): Promise<{ name: string; access: string }> {
  const admin = await staffAccount(request);
  const id = Math.random().toString(36).slice(2, 8);
  const email = `dr-${id}@clinic.e2e.example`;
  const name = `Dr. Grace Hopper ${id}`;
  const invited = await request.post(clinicStaffPaths.staff, {
    headers: { authorization: `Bearer ${admin.access}` },
    data: { email, name, role: 'practitioner' },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  return { name, access: (await joinAsStaff(request, email)).access };
}
