import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountPaths, clinicStaffPaths, problemTypes, type TokenPair } from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { staffFactories } from '#api-test/staff';
import { staffOnMemberRouteMessage } from '#api/plugins/auth';
import {
  clinicPublicRoutes,
  secondFactorRequiredMessage,
  staffAccountRoutes,
  staffOnlyMessage,
} from './staff-guard.plugin';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Route {
  method: Method;
  url: string;
}

let t: TestApp;
let members: ReturnType<typeof factories>;
let staff: ReturnType<typeof staffFactories>;

const probe = '/api/clinic/guard-probe/';
const adminProbe = '/api/clinic/guard-probe/admin/';

beforeAll(async () => {
  t = await buildTestApp({
    // Two routes of the kind the console's features add: patient data, and an admin's change.
    routes: async (app) => {
      app.get(
        probe,
        { onRequest: app.authenticateStaff, config: { audit: { none: 'a test route' } } },
        (request) => ({ id: request.staff.id }),
      );
      app.post(
        adminProbe,
        {
          onRequest: app.authenticateStaff,
          preHandler: app.requireClinicAdmin,
          config: { audit: { none: 'a test route' } },
        },
        () => ({ done: true }),
      );
      return Promise.resolve();
    },
  });
  members = factories(t);
  staff = staffFactories(t);
});
afterAll(() => t.close());

/** Every route the app documents, path parameters filled with a fresh id; `key` is the route
 *  as registered ('GET /api/account/sessions/:id/'). */
function documentedRoutes(): (Route & { key: string; secured: boolean })[] {
  const document = t.app.swagger() as {
    paths: Record<string, Record<string, { security?: unknown[] }>>;
  };
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase() as Method,
        url: path.replace(/\{[^}]+\}/g, randomUUID()),
        key: `${method.toUpperCase()} ${path.replace(/\{([^}]+)\}/g, ':$1')}`,
        secured: (operation.security?.length ?? 0) > 0,
      }))
      .filter(({ key }) => !clinicPublicRoutes.includes(key)),
  );
}

const clinicRoutes = () => documentedRoutes().filter(({ url }) => url.startsWith('/api/clinic/'));

const send = ({ method, url }: Route, token?: string) =>
  t.app.inject({
    method,
    url,
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    // A body every route accepts as JSON; the guard answers before it is read.
    ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
  });

describe('a member’s token on the clinic console', () => {
  it('is refused (403) on every /api/clinic/ route; no token is 401', async () => {
    const { tokens } = await members.loggedInMember();
    const routes = clinicRoutes();
    expect(routes.map(({ url }) => url)).toContain(clinicStaffPaths.me);
    for (const route of routes) {
      const res = await send(route, tokens.access);
      expect({ route, status: res.statusCode, body: res.json<unknown>() }).toMatchObject({
        route,
        status: 403,
        body: { detail: staffOnlyMessage },
      });
      expect({ route, status: (await send(route)).statusCode }).toEqual({ route, status: 401 });
    }
  });
});

describe('a staff account without a second factor', () => {
  it('is refused with second-factor-required on every clinic route but its own account', async () => {
    const { tokens } = await staff.loggedInStaff('clinic_admin', { secondFactor: false });
    const routes = clinicRoutes().filter(({ url }) => url !== clinicStaffPaths.me);
    expect(routes.map(({ url }) => url)).toContain(probe);
    for (const route of routes) {
      const res = await send(route, tokens.access);
      expect({ route, status: res.statusCode, body: res.json<unknown>() }).toMatchObject({
        route,
        status: 403,
        body: { type: problemTypes.secondFactorRequired, detail: secondFactorRequiredMessage },
      });
    }
    const me = await t.request('GET', clinicStaffPaths.me, { token: tokens.access });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ role: 'clinic_admin', second_factor_enrolled: false });
  });

  it('is let in once an authenticator is confirmed', async () => {
    const member = await staff.loggedInStaff('practitioner');
    const res = await t.request('GET', probe, { token: member.tokens.access });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: member.id });
  });
});

describe('a staff account on the member’s routes', () => {
  it('is refused (403) on every member route but its own account’s', async () => {
    const { tokens } = await staff.loggedInStaff('clinic_admin');
    const refused = documentedRoutes().filter(
      ({ key, url, secured }) =>
        secured && !url.startsWith('/api/clinic/') && !staffAccountRoutes.includes(key),
    );
    expect(refused.map(({ key }) => key)).toContain('GET /api/oral-photo/');
    for (const route of refused) {
      const res = await send(route, tokens.access);
      expect({ route, status: res.statusCode, body: res.json<unknown>() }).toMatchObject({
        route,
        status: 403,
        body: { detail: staffOnMemberRouteMessage },
      });
    }
  });

  it('signs in with the password and the second step, and reads its own account', async () => {
    const admin = await staff.staff('clinic_admin');
    const first = await t.request('POST', accountPaths.login, {
      body: { login_type: 'native', email: admin.email, password: admin.password },
    });
    expect(first.json()).toMatchObject({ mfa_required: true });
    const second = await t.request('POST', '/api/account/login/mfa/', {
      body: {
        mfa_token: first.json<{ mfa_token: string }>().mfa_token,
        code: admin.recoveryCodes[0],
      },
    });
    expect(second.statusCode).toBe(200);
    const { access } = second.json<TokenPair>();
    const account = await t.request('GET', accountPaths.account, { token: access });
    expect(account.statusCode).toBe(200);
    expect(account.json()).toMatchObject({ id: admin.id, role: 'clinic_admin' });
  });
});

describe('roles', () => {
  it('keeps admin-only routes from practitioners (403)', async () => {
    const practitioner = await staff.loggedInStaff('practitioner');
    const admin = await staff.loggedInStaff('clinic_admin');
    const refused = await t.request('POST', adminProbe, { token: practitioner.tokens.access });
    expect(refused.statusCode).toBe(403);
    const allowed = await t.request('POST', adminProbe, { token: admin.tokens.access });
    expect(allowed.statusCode).toBe(200);
  });
});
