import { eq } from 'drizzle-orm';
import { doctors } from '#api/db/schema';
import type { TestApp } from '#api-test/build-test-app';
import { staffFactories } from '#api-test/staff';

/** Staff for the clinic console's tests: practitioners that are bookable doctors, and admins. */
export function clinicStaff(t: TestApp) {
  const staff = staffFactories(t);
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  return {
    /** A signed-in practitioner with the doctors row their accepted invitation made: in UTC
     *  with no hours yet. */
    async practitioner() {
      const account = await staff.loggedInStaff('practitioner');
      const [doctor] = await t.db
        .select({ id: doctors.id, name: doctors.name })
        .from(doctors)
        .where(eq(doctors.userId, account.id));
      if (doctor === undefined) throw new Error('accepting the invitation made no doctor');
      return { ...account, doctorId: doctor.id, name: doctor.name };
    },

    admin: () => staff.loggedInStaff('clinic_admin'),

    /** A request with any method (the test app's helper has no PATCH). */
    async send(
      method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
      url: string,
      token: string,
      body?: unknown,
    ) {
      return t.app.inject({
        method,
        url,
        headers: auth(token),
        ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
      });
    },
  };
}

/** Every day of the week from `from` to `to`, as the availability PUT takes it. */
export const everyDay = (from: string, to: string) =>
  (['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const).map((weekday) => ({
    weekday,
    from,
    to,
  }));
