import { Secret, TOTP } from 'otpauth';
import type { StaffRole, TokenPair } from '@dental/contracts';
import { StaffRepository } from '../src/modules/clinic/staff.repository';
import { invitationLifetimeMs } from '../src/modules/clinic/staff.service';
import { hashOpaqueToken, newOpaqueToken } from '../src/modules/auth/token.service';
import type { TestApp } from './build-test-app';
import { strongPassword, uniqueEmail, type TestMember } from './factories';

export interface TestStaff extends TestMember {
  role: StaffRole;
  /** The authenticator's secret when one was enrolled. */
  totpSecret: string | null;
  /** Its unused recovery codes: each sign-in answers the challenge with one, so that no test
   *  waits for the authenticator's next step. */
  recoveryCodes: string[];
}

/** Staff accounts for the clinic tests, made by accepting an invitation as the console does. */
export function staffFactories(t: TestApp) {
  const { services } = t;
  const invitations = new StaffRepository(t.db);
  return {
    /** An open invitation and the token its e-mail would carry. */
    async invitation(
      role: StaffRole = 'practitioner',
      name = `Dr. ${role} ${newOpaqueToken().slice(0, 6)}`,
    ) {
      const token = newOpaqueToken();
      const now = t.clock.now();
      const email = uniqueEmail(role);
      const id = await invitations.insertInvitation({
        email,
        name,
        role,
        tokenHash: hashOpaqueToken(token),
        invitedBy: null,
        createdAt: now,
        expiresAt: new Date(now.getTime() + invitationLifetimeMs),
      });
      return { id, email, name, token };
    },

    /** A staff account; with a confirmed authenticator unless `secondFactor` is false. */
    async staff(
      role: StaffRole = 'practitioner',
      { secondFactor = true }: { secondFactor?: boolean } = {},
    ): Promise<TestStaff> {
      const { email, name, token } = await this.invitation(role);
      const password = strongPassword();
      const { id } = await services.staff.accept({ token, password });
      const account = { id, email, username: name, password, phone: null, role };
      if (!secondFactor) return { ...account, totpSecret: null, recoveryCodes: [] };
      const { secret } = await services.secondFactor.startTotp(id, password);
      const { recovery_codes } = await services.secondFactor.confirmTotp(id, this.code(secret));
      return { ...account, totpSecret: secret, recoveryCodes: [...recovery_codes] };
    },

    /** The current code of an authenticator, at the test clock's time. */
    code(secret: string): string {
      return new TOTP({ secret: Secret.fromBase32(secret) }).generate({
        timestamp: t.clock.now().getTime(),
      });
    },

    /** Signs the staff member in as the sign-in API does: the password, then a code. */
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
