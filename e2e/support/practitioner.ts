import type { APIRequestContext } from '@playwright/test';
import {
  clinicConsultationPaths,
  clinicStaffPaths,
  practitionerList,
  weekdays,
} from '@dental/contracts';
import { joinAsStaff, staffAdmin, type StaffAccount } from './clinic-staff';
import { expect } from './fixtures';

/** A new practitioner of the shared e2e server's practice, invited by its first administrator,
 *  for journeys in which only a practitioner may act (answering a dentist's review): their
 *  account (with an access token and the authenticator's secret) and name. */
export async function practitionerAccess(
  request: APIRequestContext,
): Promise<StaffAccount & { name: string }> {
  const admin = await staffAdmin(request);
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

/** A new practitioner (practitionerAccess) who offers a consultation every half hour of every
 *  day, UTC, so that a journey can book one within the hour. */
export async function practitionerWithHours(
  request: APIRequestContext,
): Promise<StaffAccount & { name: string }> {
  const practitioner = await practitionerAccess(request);
  const admin = await staffAdmin(request);
  const listed = await request.get(clinicConsultationPaths.practitioners, {
    headers: { authorization: `Bearer ${admin.access}` },
  });
  const doctor = practitionerList
    .parse(await listed.json())
    .results.find((entry) => entry.name === practitioner.name);
  const hours = await request.put(clinicConsultationPaths.availability(doctor?.id ?? ''), {
    headers: { authorization: `Bearer ${practitioner.access}` },
    data: {
      timezone: 'UTC',
      slot_minutes: 30,
      weekly: weekdays.map((weekday) => ({ weekday, from: '00:00', to: '24:00' })),
      time_off: [],
    },
  });
  expect(hours.status(), await hours.text()).toBe(200);
  return practitioner;
}
