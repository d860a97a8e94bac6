import { endOfYear, plans, type RegisterRequest, type RegisterResponse } from '@dental/contracts';
import type { Clock } from '#api/clock';
import { Conflict } from '#api/domain-errors';
import { toE164 } from '#api/lib/phone';
import type { UserRow } from '#api/db/schema';
import type { AuthRepository, NewUser } from './auth.repository';
import { assertAcceptablePassword, type PasswordService } from './password.service';

export const emailTakenMessage =
  'An account with this e-mail address already exists. Please log in or use another address.';

/** A new member starts on Silver with its sign-up bonus, expiring at the end of the year. */
export function newMember(
  details: Pick<NewUser, 'email' | 'username' | 'phone' | 'passwordHash' | 'emailConfirmedAt'>,
  now: Date,
): NewUser {
  return {
    ...details,
    customerLevel: 'Silver',
    points: plans.Silver.signUpBonusPoints,
    pointsExpiredAt: endOfYear(now),
  };
}

/** Sign-up with an e-mail address and a password (docs/product/accounts.md#account-calls); a
 *  social sign-up is SocialAccountService.signIn. */
export class RegistrationService {
  constructor(
    private readonly repository: AuthRepository,
    private readonly passwords: PasswordService,
    private readonly clock: Clock,
    /** Mails the new member's confirmation link (EmailConfirmationService, wired in
     *  services.ts); the account works before it is used. */
    private readonly sendConfirmation: (user: UserRow) => Promise<void>,
  ) {}

  async register(request: RegisterRequest): Promise<RegisterResponse> {
    assertAcceptablePassword(request.password);
    if (await this.repository.findUserByEmail(request.email)) throw emailTaken();
    const passwordHash = await this.passwords.hash(request.password);
    const now = this.clock.now();
    const row = await this.repository.insertUser(
      newMember(
        {
          email: request.email,
          username: request.username,
          phone: toE164(request.phone) ?? null,
          passwordHash,
          // Nobody has shown they read mail there yet (docs/decisions/email-confirmation.md).
          emailConfirmedAt: null,
        },
        now,
      ),
      now,
    );
    // A concurrent sign-up with the same address can pass the check above; the index decides.
    if (row === null) throw emailTaken();
    await this.sendConfirmation(row);
    return { id: row.id, email: row.email };
  }
}

function emailTaken(): Conflict {
  return new Conflict(emailTakenMessage, { email: [emailTakenMessage] });
}
