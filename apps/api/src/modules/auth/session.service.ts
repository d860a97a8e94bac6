import { randomUUID } from 'node:crypto';
import {
  mfaTokenExpiredMessage,
  problemTypes,
  type AccountRole,
  type LoginRequest,
  type DeviceSession,
  type LoginResponse,
  type ReauthenticateRequest,
  type TokenHandoff,
  type TokenPair,
} from '@dental/contracts';
import type { Clock } from '#api/clock';
import type { UserRow } from '#api/db/schema';
import type { SessionTimeouts } from '#api/config';
import { Forbidden, NotFound, Unauthorized, type DomainError } from '#api/domain-errors';
import {
  sessionExpiredMessage,
  type AccessClaims,
  type AuthenticatedUser,
} from '#api/plugins/auth';
import type { AuthRepository, SessionTimes } from './auth.repository';
import type { PasswordService } from './password.service';
import type { PasswordRecheckService } from './password-recheck.service';
import type { SecondFactorService } from './second-factor.service';
import { isNewDevice, type SecurityNotices } from './security-notices';
import {
  deactivatedMessage,
  isActiveMember,
  wrongCredentialsMessage,
  type SignInContext,
} from './sign-in';
import type { EndStandingLinks } from './standing-links';
import {
  hashOpaqueToken,
  newOpaqueToken,
  refreshTokenLifetimeMs,
  type TokenService,
} from './token.service';

/** What proved the member's identity; a passkey is already two factors, and 'second factor' is
 *  the second step after a password or social sign-in (docs/decisions/second-factor.md). */
export type SignInProof = 'password' | 'social' | 'passkey' | 'second factor';

export const reauthenticationRequiredMessage =
  'For your security, please enter your password again to continue.';

/** A use of a session is written at most this often (docs/decisions/session-timeouts.md). */
export const sessionUseRecordIntervalMs = 60 * 1000;

/** A staff account opens many patients' data: its sessions idle out sooner than a member's
 *  (docs/decisions/clinic-staff.md), and never later when members' limit is set shorter. An
 *  access token lives no longer than this, so an idle staff session is caught at its refresh. */
export const staffIdleMinutes = 15;

/** 401 for a session that ended after the idle timeout; the web app explains it on Login. */
export class SessionIdle extends Unauthorized {
  override readonly type = problemTypes.sessionIdle;

  constructor(idleMinutes: number) {
    super(
      `You were signed out after ${idleMinutes} minutes without activity. Please log in again.`,
    );
  }
}

/** 401 for a session that reached its absolute lifetime. */
export class SessionLifetimeReached extends Unauthorized {
  override readonly type = problemTypes.sessionLifetime;

  constructor(maxHours: number) {
    super(`Your session reached its ${maxHours}-hour limit. Please log in again.`);
  }
}

/** 403 for an action that needs a recent sign-in: the client re-checks the password, retries. */
export class ReauthenticationRequired extends Forbidden {
  override readonly type = problemTypes.reauthenticationRequired;

  constructor() {
    super(reauthenticationRequiredMessage);
  }
}

/**
 * Log in, refresh and log out (docs/decisions/refresh-token-rotation.md): a login starts a
 * session, a family of refresh tokens; each refresh uses one up and issues the next; presenting a
 * used token again means it was copied, so the whole session ends. A session also ends after the
 * idle timeout and at its absolute lifetime (docs/decisions/session-timeouts.md).
 */
export class SessionService {
  constructor(
    private readonly repository: AuthRepository,
    private readonly passwords: PasswordService,
    private readonly tokens: TokenService,
    private readonly clock: Clock,
    private readonly customerServiceEmail: string,
    private readonly timeouts: SessionTimeouts,
    private readonly notices: SecurityNotices,
    private readonly secondFactor: SecondFactorService,
    private readonly recheck: PasswordRecheckService,
    private readonly endStandingLinks: EndStandingLinks,
  ) {}

  private idleMinutes(role: AccountRole): number {
    return role === 'member'
      ? this.timeouts.idleMinutes
      : Math.min(staffIdleMinutes, this.timeouts.idleMinutes);
  }

  private get lifetimeMs(): number {
    return this.timeouts.maxHours * 60 * 60 * 1000;
  }

  /** The password sign-in; social ones are SocialAccountService.signIn. */
  async login(request: LoginRequest, context: SignInContext): Promise<LoginResponse> {
    const user = await this.repository.findUserByEmail(request.email);
    if (user === undefined) {
      await this.passwords.verifyAgainstDummy(request.password);
      throw new Unauthorized(wrongCredentialsMessage);
    }
    if (!(await this.passwords.verify(user.passwordHash, request.password))) {
      throw new Unauthorized(wrongCredentialsMessage);
    }
    return this.signIn(user, context, 'password');
  }

  /**
   * Every way of proving who the member is (password, social provider, passkey) ends here, so
   * that the deactivation rule, the second factor and the session record apply to all of them.
   * A password or social sign-in of an account with a second factor answers a challenge instead
   * of tokens; a passkey, or the challenge's second step, signs in.
   */
  async signIn(
    user: UserRow,
    context: SignInContext,
    proof: 'passkey' | 'second factor',
  ): Promise<TokenPair>;
  async signIn(user: UserRow, context: SignInContext, proof: SignInProof): Promise<LoginResponse>;
  async signIn(user: UserRow, context: SignInContext, proof: SignInProof): Promise<LoginResponse> {
    // Only someone who proved the identity learns that the account is deactivated.
    if (user.deactivatedAt !== null) {
      throw new Forbidden(deactivatedMessage(this.customerServiceEmail));
    }
    const oneFactor = proof === 'password' || proof === 'social';
    if (oneFactor && (await this.secondFactor.hasSecondFactor(user.id))) {
      return { mfa_required: true, mfa_token: await this.secondFactor.challenge(user.id) };
    }
    const now = this.clock.now();
    const sessionId = randomUUID();
    const { pair, newDevice } = await this.repository.transaction(async (tx) => {
      const newDevice = isNewDevice(await tx.signInUserAgents(user.id), context.userAgent);
      await tx.insertSession({ id: sessionId, userId: user.id, now, ...context });
      return { pair: await this.issuePair(tx, { userId: user.id, sessionId }, now), newDevice };
    });
    if (newDevice) await this.notices.newDeviceSignIn(user, sessionId, context, now);
    return pair;
  }

  /** The second step with an authenticator or recovery code: 400 for a wrong code (throttled),
   *  401 once the `mfa_token` expired or was used. */
  async loginWithCode(token: string, code: string, context: SignInContext): Promise<TokenPair> {
    const userId = await this.secondFactor.redeemWithCode(token, code);
    const user = await this.repository.findUserById(userId);
    if (user === undefined) throw new Unauthorized(mfaTokenExpiredMessage);
    return this.signIn(user, context, 'second factor');
  }

  async refresh(refreshToken: string): Promise<TokenPair> {
    return this.rotate(refreshToken, (tx, claims, now) => this.issuePair(tx, claims, now));
  }

  /**
   * A refresh for a new tab of the same browser (docs/decisions/session-handoff.md): the token
   * is used up as by a refresh, and two pairs of the same session come back, the caller's next
   * one and the new tab's own, so that the two tabs never present the same refresh token. A
   * copied token handed off still meets its original later, as reuse.
   */
  async handOff(refreshToken: string): Promise<TokenHandoff> {
    return this.rotate(refreshToken, async (tx, claims, now) => ({
      ...(await this.issuePair(tx, claims, now)),
      handoff: await this.issuePair(tx, claims, now),
    }));
  }

  /** Uses up the refresh token and issues what `issue` makes in its session, or ends the session
   *  when the token comes back a second time or the session timed out. */
  private async rotate<Issued>(
    refreshToken: string,
    issue: (tx: AuthRepository, claims: AccessClaims, now: Date) => Promise<Issued>,
  ): Promise<Issued> {
    const now = this.clock.now();
    const tokenHash = hashOpaqueToken(refreshToken);
    // The transaction returns instead of throwing so that ending the session still commits.
    const outcome = await this.repository.transaction(async (tx): Promise<Issued | DomainError> => {
      const ended = new Unauthorized(sessionExpiredMessage);
      const current = await tx.findRefreshToken(tokenHash);
      if (current === undefined) return ended;
      const claims = { userId: current.userId, sessionId: current.familyId };
      if (!(await tx.claimRefreshToken(current.userId, current.id, now))) {
        const expired = current.expiresAt <= now && current.usedAt === null;
        if (!expired) await tx.endSessions(claims.userId, { only: claims.sessionId }, now);
        return ended;
      }
      const user = await tx.findUserById(current.userId);
      const session = await tx.findSession(claims.userId, claims.sessionId);
      if (!isActiveMember(user) || session === undefined) return ended;
      const timedOut = this.timedOut(session, now, user.role);
      if (timedOut !== null) {
        await tx.endSessions(claims.userId, { only: claims.sessionId }, now);
        return timedOut;
      }
      await tx.recordSessionUse(claims.userId, claims.sessionId, now);
      return issue(tx, claims, now);
    });
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }

  /**
   * The member and session behind a verified access token, or null when the session ended or the
   * account is deactivated; throws when it timed out. One query (`useSession`).
   */
  async findActiveSession(claims: AccessClaims): Promise<AuthenticatedUser | null> {
    const now = this.clock.now();
    const session = await this.repository.useSession(claims.userId, claims.sessionId, {
      now,
      lastUsedBefore: new Date(now.getTime() - sessionUseRecordIntervalMs),
      lastUsedAfter: new Date(now.getTime() - this.idleMinutes('member') * 60_000),
      createdAfter: new Date(now.getTime() - this.lifetimeMs),
    });
    if (session === undefined) return null;
    const timedOut = this.timedOut(session, now, session.role);
    if (timedOut !== null) throw timedOut;
    return {
      id: claims.userId,
      sessionId: claims.sessionId,
      authenticatedAt: session.authenticatedAt,
      role: session.role,
    };
  }

  /** Step-up: a right password, or a right code of the member's second factor, makes the
   *  session count as signed in just now. */
  async reauthenticate(user: AuthenticatedUser, proof: ReauthenticateRequest): Promise<void> {
    if (proof.password === undefined && proof.code !== undefined) {
      await this.secondFactor.verifyCode(user.id, proof.code);
    } else {
      await this.recheck.require(user.id, proof.password ?? '');
    }
    await this.repository.markSessionAuthenticated(user.id, user.sessionId, this.clock.now());
  }

  /** For actions that need a recent sign-in: whatever proved the member's identity last
   *  (a password today, a second factor or a social sign-in later) set `authenticatedAt`. */
  assertRecentlyAuthenticated(user: AuthenticatedUser): void {
    const age = this.clock.now().getTime() - user.authenticatedAt.getTime();
    if (age > this.timeouts.reauthMinutes * 60 * 1000) throw new ReauthenticationRequired();
  }

  /** Why the session is over at `now`: whichever limit it reached first; null when live. */
  private timedOut(session: SessionTimes, now: Date, role: AccountRole): DomainError | null {
    const idleMinutes = this.idleMinutes(role);
    const idleEnd = session.lastUsedAt.getTime() + idleMinutes * 60_000;
    const lifetimeEnd = session.createdAt.getTime() + this.lifetimeMs;
    if (Math.min(idleEnd, lifetimeEnd) > now.getTime()) return null;
    return lifetimeEnd <= idleEnd
      ? new SessionLifetimeReached(this.timeouts.maxHours)
      : new SessionIdle(idleMinutes);
  }

  /** The member's live sessions: not ended, not timed out (docs/decisions/signed-in-devices.md);
   *  and those timed out whose notifications are still on (docs/decisions/web-push.md). */
  async listSessions(user: AuthenticatedUser): Promise<DeviceSession[]> {
    const now = this.clock.now();
    const open = await this.repository.openSessions(user.id);
    const notifications = await this.repository.pushSubscriptionsBySession(user.id);
    return open
      .map((session) => ({ session, signedIn: this.timedOut(session, now, user.role) === null }))
      .filter(({ session, signedIn }) => signedIn || notifications.has(session.id))
      .map(({ session, signedIn }) => ({
        id: session.id,
        created_at: session.createdAt.toISOString(),
        last_used_at: session.lastUsedAt.toISOString(),
        user_agent: session.userAgent,
        ip: session.ip,
        current: session.id === user.sessionId,
        push_subscription_id: notifications.get(session.id) ?? null,
        signed_in: signedIn,
      }));
  }

  /** Ends one live session of the member, the caller's own included; any other id is 404. */
  async endDeviceSession(user: AuthenticatedUser, sessionId: string): Promise<void> {
    const now = this.clock.now();
    const ended = await this.repository.transaction(async (tx) => {
      const session = await tx.findSession(user.id, sessionId);
      if (session?.endedAt !== null || this.timedOut(session, now, user.role) !== null) {
        return false;
      }
      await tx.endSessions(user.id, { only: sessionId }, now);
      return true;
    });
    if (!ended) throw new NotFound('This session was not found. It may have ended already.');
  }

  /** 'Sign out everywhere else': every session of the member but the caller's, and the links
   *  that open the member's data without one. */
  async endOtherSessions(user: AuthenticatedUser): Promise<void> {
    await this.endStandingLinks(user.id);
    const now = this.clock.now();
    await this.repository.transaction((tx) =>
      tx.endSessions(user.id, { allBut: user.sessionId }, now),
    );
  }

  /** Ends the session the refresh token belongs to; unknown tokens are ignored. */
  async logout(refreshToken: string): Promise<void> {
    const current = await this.repository.findRefreshToken(hashOpaqueToken(refreshToken));
    if (current === undefined) return;
    const now = this.clock.now();
    await this.repository.transaction((tx) =>
      tx.endSessions(current.userId, { only: current.familyId }, now),
    );
  }

  private async issuePair(
    repository: AuthRepository,
    claims: AccessClaims,
    now: Date,
  ): Promise<TokenPair> {
    const refresh = newOpaqueToken();
    await repository.insertRefreshToken({
      userId: claims.userId,
      familyId: claims.sessionId,
      tokenHash: hashOpaqueToken(refresh),
      createdAt: now,
      expiresAt: new Date(now.getTime() + refreshTokenLifetimeMs),
    });
    return { access: await this.tokens.issueAccessToken(claims), refresh };
  }
}
