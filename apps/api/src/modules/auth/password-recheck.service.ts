import type { Clock } from '#api/clock';
import type { UserRow } from '#api/db/schema';
import { BadRequest } from '#api/domain-errors';
import type { AuthRepository } from './auth.repository';
import type { GuessLock } from './guess-lock';
import type { PasswordService } from './password.service';
import { isActiveMember, wrongPasswordMessage } from './sign-in';
import { hashOpaqueToken } from './token.service';

/**
 * The signed-in member's password, asked again before a sensitive action (step-up, password
 * change, authenticator on or off). Wrong ones lock the member's re-checks like wrong passwords
 * lock a sign-in, per member whatever the address: only someone holding the member's session
 * can lock them (docs/decisions/login-throttling.md).
 */
export class PasswordRecheckService {
  constructor(
    private readonly accounts: AuthRepository,
    private readonly passwords: PasswordService,
    private readonly guesses: GuessLock,
    private readonly clock: Clock,
  ) {}

  /** The member's row when the password is theirs (and the account active), else undefined;
   *  429 while wrong ones have locked the member's re-checks. */
  verify(userId: string, password: string): Promise<UserRow | undefined> {
    const key = hashOpaqueToken(`password-recheck:${userId}`);
    return this.guesses.evaluate(key, this.clock.now(), async () => {
      const row = await this.accounts.findUserById(userId);
      const right =
        isActiveMember(row) && (await this.passwords.verify(row.passwordHash, password));
      return right ? row : undefined;
    });
  }

  /** The member's row; 400 on `password` for a wrong one. */
  async require(userId: string, password: string): Promise<UserRow> {
    const row = await this.verify(userId, password);
    if (row === undefined) {
      throw new BadRequest(wrongPasswordMessage, { password: [wrongPasswordMessage] });
    }
    return row;
  }
}
