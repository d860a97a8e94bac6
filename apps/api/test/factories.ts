import { randomBytes } from 'node:crypto';
import {
  appointmentRequest,
  newOralPhotoRequest,
  type Appointment,
  type AppointmentRequest,
  type OralPhoto,
  type RegisterRequest,
  type TokenPair,
} from '@dental/contracts';
import { eq } from 'drizzle-orm';
import { users } from '#api/db/schema';
import type { TestApp } from './build-test-app';
import { dataUrlOf, makePng } from './fixtures/upload-test-files';

export interface TestMember {
  id: string;
  email: string;
  username: string;
  password: string;
  phone: string | null;
}

/** A password that passes every rule and is unique to the call. */
export function strongPassword(): string {
  return `Molar-${randomBytes(6).toString('hex')}`;
}

export function uniqueEmail(label = 'member'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.com`;
}

/** Members created straight through the services (no rate limits, no HTTP round trips). */
export function factories({ services, db }: TestApp) {
  return {
    /** A member whose address counts as confirmed, as every member's did before confirmation
     *  links (docs/decisions/email-confirmation.md), unless `confirmed` is false. */
    async member(
      overrides: Partial<RegisterRequest> = {},
      { confirmed = true }: { confirmed?: boolean } = {},
    ): Promise<TestMember> {
      const request: RegisterRequest = {
        email: uniqueEmail(),
        username: 'Test Member',
        password: strongPassword(),
        phone: null,
        ...overrides,
      };
      const { id } = await services.registrations.register(request);
      if (confirmed) {
        await db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.id, id));
      }
      return {
        id,
        email: request.email,
        username: request.username,
        password: request.password,
        phone: request.phone ?? null,
      };
    },

    /** The tokens of a password sign-in of a member without a second factor. */
    async login(member: Pick<TestMember, 'email' | 'password'>): Promise<TokenPair> {
      const answer = await services.sessions.login(
        {
          login_type: 'native',
          email: member.email,
          password: member.password,
        },
        { userAgent: 'test', ip: '127.0.0.1' },
      );
      if ('mfa_required' in answer) throw new Error('This member has a second factor.');
      return answer;
    },

    /** A member who has logged in, with the tokens of that session. */
    async loggedInMember(
      overrides: Partial<RegisterRequest> = {},
      options: { confirmed?: boolean } = {},
    ) {
      const member = await this.member(overrides, options);
      return { ...member, tokens: await this.login(member) };
    },

    /** An appointment of `member`, saved through the service (its reminders included). */
    appointment(member: Pick<TestMember, 'id'>, request: AppointmentRequest): Promise<Appointment> {
      return services.appointments.create(member.id, appointmentRequest.parse(request));
    },

    /** A small PNG X-ray of `member`, stored through the service as an upload is. */
    async oralPhoto(member: Pick<TestMember, 'id'>): Promise<OralPhoto> {
      return services.oralPhotos.create(
        member.id,
        newOralPhotoRequest.parse({
          shoot_date: '2025-06-01',
          photo_type: 'X-ray',
          image_link: dataUrlOf(await makePng(), 'image/png'),
        }),
      );
    },
  };
}
