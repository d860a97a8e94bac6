import { z } from 'zod';
import {
  socialProviderNames,
  type Account,
  type LoginResponse,
  type SocialLoginRequest,
  type SocialProvider,
} from '@dental/contracts';
import type { Clock } from '#api/clock';
import type { UserRow } from '#api/db/schema';
import { Conflict, Forbidden, NotFound } from '#api/domain-errors';
import type { AuthRepository } from './auth.repository';
import { newMember } from './registration.service';
import type { SessionService } from './session.service';
import type { SignInContext } from './sign-in';
import type { SocialIdentity, SocialIdentityVerifier } from './social-identity';

/** The member's account as the API answers it: the account module's, wired in services.ts. */
export type AccountAnswer = (userId: string) => Promise<Account>;

export function unverifiedEmailMessage(provider: SocialProvider): string {
  const name = socialProviderNames[provider];
  return `${name} has not confirmed the e-mail address of this account, so it cannot be used to sign up. Please confirm it with ${name}, or sign up with your e-mail address.`;
}

export function existingAccountMessage(provider: SocialProvider): string {
  const name = socialProviderNames[provider];
  return `An account with the e-mail address of this ${name} account already exists. Please log in with your password and connect ${name} on your Profile.`;
}

export function lastSignInMethodMessage(provider: SocialProvider): string {
  return `${socialProviderNames[provider]} is the only way you can sign in, so it cannot be disconnected. Set a password (Forgot Password? on the login screen) or connect another account first.`;
}

function notLinkedMessage(provider: SocialProvider): string {
  return `No ${socialProviderNames[provider]} account is linked to your profile.`;
}

const linkId = z.uuid();

/**
 * Sign-in, linking and unlinking with Google, Apple and Facebook
 * (docs/decisions/social-sign-in.md). Every token is verified with its provider first; every
 * sign-in goes through SessionService.signIn, so deactivation and the second factor apply.
 */
export class SocialAccountService {
  constructor(
    private readonly repository: AuthRepository,
    private readonly verifier: SocialIdentityVerifier,
    private readonly sessions: SessionService,
    private readonly accountOf: AccountAnswer,
    private readonly clock: Clock,
  ) {}

  /**
   * A linked provider account signs its member in. An unknown one creates a member only when the
   * provider vouches for the e-mail, and never takes over an existing account with that e-mail.
   */
  async signIn(request: SocialLoginRequest, context: SignInContext): Promise<LoginResponse> {
    const identity = await this.verifier.verify(request.login_type, request.token, request.nonce);
    const linked = await this.repository.findUserBySocialAccount(
      identity.provider,
      identity.subject,
    );
    const user = linked ?? (await this.createMember(identity));
    return this.sessions.signIn(user, context, 'social');
  }

  async link(userId: string, request: SocialLoginRequest): Promise<Account> {
    const identity = await this.verifier.verify(request.login_type, request.token, request.nonce);
    const linked = await this.repository.insertSocialAccount({
      userId,
      provider: identity.provider,
      subject: identity.subject,
      email: identity.email,
      linkedAt: this.clock.now(),
    });
    if (!linked) {
      const owner = await this.repository.findUserBySocialAccount(
        identity.provider,
        identity.subject,
      );
      // Linking the same account again changes nothing.
      if (owner?.id !== userId) throw await this.linkConflict(userId, identity);
    }
    return this.accountOf(userId);
  }

  /** Refused when it would leave the member no way to sign in. */
  async unlink(userId: string, provider: SocialProvider, id: string): Promise<Account> {
    if (!linkId.safeParse(id).success) throw new NotFound(notLinkedMessage(provider));
    await this.repository.transaction(async (tx) => {
      // The row lock makes two concurrent unlinks of the last two methods see each other.
      const user = await tx.lockUser(userId);
      const links = await tx.listSocialAccounts(userId);
      const link = links.find((row) => row.provider === provider && row.id === id);
      if (user === undefined || link === undefined) throw new NotFound(notLinkedMessage(provider));
      if ((await tx.signInMethodCount(user)) <= 1) {
        throw new Conflict(lastSignInMethodMessage(provider));
      }
      await tx.deleteSocialAccount(userId, provider, id);
    });
    return this.accountOf(userId);
  }

  private async createMember(identity: SocialIdentity): Promise<UserRow> {
    const { provider, email } = identity;
    if (!identity.emailVerified || email === null) {
      throw new Forbidden(unverifiedEmailMessage(provider));
    }
    if (await this.repository.findUserByEmail(email)) {
      throw new Conflict(existingAccountMessage(provider));
    }
    const now = this.clock.now();
    const created = await this.repository.transaction(async (tx) => {
      const username = email.slice(0, email.indexOf('@')) || email;
      const row = await tx.insertUser(
        // The provider vouched for the address (emailVerified above): it counts as confirmed.
        newMember({ email, username, phone: null, passwordHash: null, emailConfirmedAt: now }, now),
        now,
      );
      if (row === null) return null;
      const linked = await tx.insertSocialAccount({
        userId: row.id,
        provider,
        subject: identity.subject,
        email,
        linkedAt: now,
      });
      return linked ? row : null;
    });
    // A concurrent first sign-in with the same e-mail or account won the race.
    if (created === null) throw new Conflict(existingAccountMessage(provider));
    return created;
  }

  private async linkConflict(userId: string, identity: SocialIdentity): Promise<Conflict> {
    const name = socialProviderNames[identity.provider];
    const own = await this.repository.listSocialAccounts(userId);
    return own.some((row) => row.provider === identity.provider)
      ? new Conflict(
          `Your profile is already connected to another ${name} account. Disconnect it first.`,
        )
      : new Conflict(`This ${name} account is already connected to another member.`);
  }
}
