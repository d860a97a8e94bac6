import { eq } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { StaffRole, TokenPair } from '@dental/contracts';
import { users } from '../src/db/schema';
import type { TestApp } from './build-test-app';
import { factories, type TestMember } from './factories';

export interface TestStaff extends TestMember {
  role: StaffRole;
  /** The authenticator's secret when one was enrolled. */
  totpSecret: string | null;
  /** Its unused recovery codes: each sign-in answers the challenge with one, so that no test
   *  waits for the authenticator's next step. */
  recoveryCodes: string[];
}

/** Staff accounts for the clinic tests, made through the services as an invitation makes them. */
export function staffFactories(t: TestApp) {
  const members = factories(t);
  const { services } = t;
  return {
    /** A staff account; with a confirmed authenticator unless `secondFactor` is false. */
    async staff(
      role: StaffRole = 'practitioner',
      { secondFactor = true }: { secondFactor?: boolean } = {},
    ): Promise<TestStaff> {
      const account = await members.member({ username: `Dr. ${role}` });
      await t.db.update(users).set({ role }).where(eq(users.id, account.id));
      if (!secondFactor) return { ...account, role, totpSecret: null, recoveryCodes: [] };
      const { secret } = await services.secondFactor.startTotp(account.id, account.password);
      const { recovery_codes } = await services.secondFactor.confirmTotp(
        account.id,
        this.code(secret),
      );
      return { ...account, role, totpSecret: secret, recoveryCodes: [...recovery_codes] };
    },

    /** The current code of an authenticator, at the test clock's time. */
    code(secret: string): string {
      return new TOTP({ secret: Secret.fromBase32(secret) }).generate({
        timestamp: t.clock.now().getTime(),
      });
    },

    /** Signs the staff member in as the sign-in API does: the password, then the code. */
    async login(staff: TestStaff): Promise<TokenPair> {
      const context = { userAgent: 'test', ip: '127.0.0.1' };
      const first = await services.sessions.login(
        { login_type: 'native', email: staff.email, password: staff.password },
        context,
      );
      if (!('mfa_required' in first)) return first;
      const code = staff.recoveryCodes.pop();
      if (code === undefined) throw new Error('No recovery code left to answer the challenge.');
      return services.sessions.loginWithCode(first.mfa_token, code, context);
    },

    async loggedInStaff(role: StaffRole = 'practitioner', options?: { secondFactor?: boolean }) {
      const staff = await this.staff(role, options);
      return { ...staff, tokens: await this.login(staff) };
    },
  };
}
