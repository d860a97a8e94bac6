import { clinicMessagePaths, clinicStaffPaths, type ClinicMe } from '@dental/contracts';
import { clinicRoutes } from '../router';
import { sessionStore } from '#web/lib/session-store';
import { json, stubFetch, testAccount, type Handler } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

export const testStaff: ClinicMe = {
  id: '11111111-2222-4333-8444-555555555555',
  name: 'Dr. Lee',
  email: 'lee@clinic.example',
  role: 'practitioner',
  practitioner_id: '66666666-7777-4888-9999-aaaaaaaaaaaa',
  second_factor_enrolled: true,
};

/** The clinic console at `path`, signed in as `staff` (with a second factor), answering the
 *  layout's own calls (who is signed in, the unread count) and `handlers`. */
export function renderConsole(
  path: string,
  handlers: Record<string, Handler>,
  { staff = testStaff, unread = 0 }: { staff?: ClinicMe; unread?: number } = {},
) {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  const api = stubFetch({
    'GET /api/account/': () => json({ ...testAccount, role: staff.role }),
    [`GET ${clinicStaffPaths.me}`]: () => json(staff),
    [`GET ${clinicMessagePaths.unread}`]: () => json({ unread }),
    ...handlers,
  });
  return { api, ...renderRoute(path, clinicRoutes) };
}
