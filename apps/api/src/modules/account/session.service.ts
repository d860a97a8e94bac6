import { randomUUID } from 'node:crypto';
import { socialProviderNames, type AnyLoginRequest, type TokenPair } from '@dental/contracts';
import type { Clock } from '../../clock';
import { Forbidden, Unauthorized, UnprocessableEntity } from '../../domain-errors';
import type { AccountRepository } from './account.repository';
import { isActiveMember } from './account.service';
import type { PasswordService } from './password.service';
import {
  hashOpaqueToken,
  newOpaqueToken,
  refreshTokenLifetimeMs,
  type TokenService,
} from './token.service';

/** One answer for an unknown e-mail and a wrong password, so neither is revealed. */
export const wrongCredentialsMessage = 'The e-mail address or password is incorrect.';
export const sessionEndedMessage = 'Your session has ended. Please log in again.';

export function deactivatedMessage(customerServiceEmail: string): string {
  return `This account has been deleted and deactivated. To reactivate it, please contact customer service at ${customerServiceEmail}.`;
}

/**
 * Log in, refresh and log out (docs/decisions/refresh-token-rotation.md): a login starts a
 * family of refresh tokens; each refresh uses one up and issues the next; presenting a used
 * token again means it was copied, so the whole family is revoked.
 */
export class SessionService {
  constructor(
    private readonly repository: AccountRepository,
    private readonly passwords: PasswordService,
    private readonly tokens: TokenService,
    private readonly clock: Clock,
    private readonly customerServiceEmail: string,
  ) {}

  async login(request: AnyLoginRequest): Promise<TokenPair> {
    if (request.login_type !== 'native') {
      const provider = socialProviderNames[request.login_type];
      throw new UnprocessableEntity(`Sign-in with ${provider} is not available on this server.`);
    }
    const user = await this.repository.findUserByEmail(request.email);
    if (user === undefined) {
      await this.passwords.verifyAgainstDummy(request.password);
      throw new Unauthorized(wrongCredentialsMessage);
    }
    if (!(await this.passwords.verify(user.passwordHash, request.password))) {
      throw new Unauthorized(wrongCredentialsMessage);
    }
    // Only someone who knows the password learns that the account is deactivated.
    if (user.deactivatedAt !== null) {
      throw new Forbidden(deactivatedMessage(this.customerServiceEmail));
    }
    const now = this.clock.now();
    return this.issuePair(this.repository, user.id, randomUUID(), now);
  }

  async refresh(refreshToken: string): Promise<TokenPair> {
    const now = this.clock.now();
    const tokenHash = hashOpaqueToken(refreshToken);
    // The transaction returns instead of throwing so that a reuse revocation still commits.
    const pair = await this.repository.transaction(async (tx) => {
      const current = await tx.findRefreshToken(tokenHash);
      if (current === undefined) return null;
      if (!(await tx.claimRefreshToken(current.userId, current.id, now))) {
        const expired = current.expiresAt <= now && current.usedAt === null;
        if (!expired) await tx.revokeRefreshFamily(current.userId, current.familyId, now);
        return null;
      }
      const user = await tx.findUserById(current.userId);
      if (!isActiveMember(user)) return null;
      return this.issuePair(tx, user.id, current.familyId, now);
    });
    if (pair === null) throw new Unauthorized(sessionEndedMessage);
    return pair;
  }

  /** Ends the session the refresh token belongs to; unknown tokens are ignored. */
  async logout(refreshToken: string): Promise<void> {
    const current = await this.repository.findRefreshToken(hashOpaqueToken(refreshToken));
    if (current === undefined) return;
    await this.repository.revokeRefreshFamily(current.userId, current.familyId, this.clock.now());
  }

  private async issuePair(
    repository: AccountRepository,
    userId: string,
    familyId: string,
    now: Date,
  ): Promise<TokenPair> {
    const refresh = newOpaqueToken();
    await repository.insertRefreshToken({
      userId,
      familyId,
      tokenHash: hashOpaqueToken(refresh),
      createdAt: now,
      expiresAt: new Date(now.getTime() + refreshTokenLifetimeMs),
    });
    return { access: await this.tokens.issueAccessToken(userId), refresh };
  }
}
