import {
  changePasswordSuccess,
  wrongCurrentPasswordMessage,
  type ChangePasswordRequest,
  type MessageResponse,
} from '@dental/contracts';
import type { Clock } from '#api/clock';
import { BadRequest } from '#api/domain-errors';
import type { AuthenticatedUser } from '#api/plugins/auth';
import type { AuthRepository } from './auth.repository';
import { assertAcceptablePassword, type PasswordService } from './password.service';
import type { PasswordRecheckService } from './password-recheck.service';
import type { SecurityNotices } from './security-notices';
import type { EndStandingLinks } from './standing-links';

/** Change the password while signed in (docs/product/accounts.md#password-and-devices): the
 *  current password is checked in the same call, so no separate step-up is needed. */
export class PasswordChangeService {
  constructor(
    private readonly repository: AuthRepository,
    private readonly passwords: PasswordService,
    private readonly clock: Clock,
    private readonly notices: SecurityNotices,
    private readonly recheck: PasswordRecheckService,
    private readonly endStandingLinks: EndStandingLinks,
  ) {}

  /**
   * Sets the new password (the reset's rules), uses up every reset link and ends every other
   * session and the links that open the member's data without one; the caller's session counts
   * as signed in just now. The member is e-mailed.
   */
  async changePassword(
    user: AuthenticatedUser,
    request: ChangePasswordRequest,
  ): Promise<MessageResponse> {
    const row = await this.recheck.verify(user.id, request.current_password);
    if (row === undefined) {
      throw new BadRequest(wrongCurrentPasswordMessage, {
        current_password: [wrongCurrentPasswordMessage],
      });
    }
    assertAcceptablePassword(request.password);
    const passwordHash = await this.passwords.hash(request.password);
    await this.endStandingLinks(user.id);
    const now = this.clock.now();
    await this.repository.transaction(async (tx) => {
      await tx.updatePasswordHash(user.id, passwordHash, now);
      await tx.useAllPasswordResetKeys(user.id, now);
      await tx.endSessions(user.id, { allBut: user.sessionId }, now);
      await tx.markSessionAuthenticated(user.id, user.sessionId, now);
    });
    await this.notices.passwordChanged(row, now);
    return { message: changePasswordSuccess };
  }
}
