import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  lastSignInMethodPasskeyMessage,
  mfaTokenExpiredMessage,
  passkeyChallengeExpiredMessage,
  passkeyChallengeLifetimeMs,
  passkeyNotVerifiedMessage,
  passkeyUnknownMessage,
  type AddPasskeyRequest,
  type Passkey,
  type PasskeySecondFactorRequest,
  type PasskeySignInRequest,
  type TokenPair,
  type WebAuthnOptions,
} from '@dental/contracts';
import type { Mailer } from '#api/adapters/mailer';
import type { Clock } from '#api/clock';
import type { PasskeyRow, UserRow } from '#api/db/schema';
import { BadRequest, Conflict, NotFound, Unauthorized } from '#api/domain-errors';
import type { ErrorLogger } from '#api/logger';
import { htmlParagraphs } from '#api/lib/html';
import { LoadOnce } from '#api/lib/load-once';
import type { AuthRepository } from '../auth.repository';
import type { SecondFactorService } from '../second-factor.service';
import type { SessionService } from '../session.service';
import { isActiveMember, type SignInContext } from '../sign-in';
import type { ChallengePurpose, PasskeyRepository } from './passkeys.repository';

export interface PasskeySettings {
  /** The web app's origin: the relying party id is its host name. */
  publicUrl: string;
  companyName: string;
}

export const passkeyExistsMessage = 'This passkey is registered already.';
export const passkeyNotFoundMessage = 'This passkey was not found.';

/** The WebAuthn library, loaded on the first passkey ceremony rather than at start. */
const webauthn = new LoadOnce(async () => {
  const [server, helpers] = await Promise.all([
    import('@simplewebauthn/server'),
    import('@simplewebauthn/server/helpers'),
  ]);
  return { ...server, ...helpers };
});

function toPasskey(row: PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** The challenge the browser signed, read from the client data; '' when it cannot be read. */
async function signedChallenge(clientDataJSON: string): Promise<string> {
  const { decodeClientDataJSON } = await webauthn.get();
  try {
    const challenge = (decodeClientDataJSON(clientDataJSON) as { challenge?: unknown }).challenge;
    return typeof challenge === 'string' ? challenge : '';
  } catch {
    return '';
  }
}

/**
 * Passkeys (docs/decisions/passkeys.md): registration from the Profile and usernameless sign-in.
 * Every challenge is stored, answers one ceremony of one purpose, once, within 5 minutes; the
 * relying party is PUBLIC_URL's host and the only accepted origin is PUBLIC_URL's.
 */
export class PasskeyService {
  private readonly rpId: string;
  private readonly origin: string;

  constructor(
    private readonly repository: PasskeyRepository,
    private readonly accounts: AuthRepository,
    private readonly sessions: SessionService,
    private readonly secondFactor: SecondFactorService,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly settings: PasskeySettings,
    private readonly log: ErrorLogger,
  ) {
    const url = new URL(settings.publicUrl);
    this.rpId = url.hostname;
    this.origin = url.origin;
  }

  async list(userId: string): Promise<Passkey[]> {
    return (await this.repository.list(userId)).map(toPasskey);
  }

  /** Options for the browser to create a discoverable, user-verified passkey for the member. */
  async registrationOptions(userId: string): Promise<WebAuthnOptions> {
    const user = await this.requireMember(userId);
    const existing = await this.repository.list(userId);
    const { generateRegistrationOptions, isoUint8Array } = await webauthn.get();
    const options = await generateRegistrationOptions({
      rpName: this.settings.companyName,
      rpID: this.rpId,
      userName: user.email,
      userDisplayName: user.username,
      userID: isoUint8Array.fromUTF8String(user.id),
      attestationType: 'none',
      timeout: passkeyChallengeLifetimeMs,
      // The same authenticator twice would be one key under two names.
      excludeCredentials: existing.map((row) => ({
        id: row.credentialId,
        transports: row.transports,
      })),
      // Discoverable, so that sign-in needs no e-mail; verified, so that it is two factors.
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });
    await this.storeChallenge(options.challenge, 'register', userId);
    return { ...options };
  }

  /** Verifies the browser's new credential and keeps its public key under the given name. */
  async add(userId: string, request: AddPasskeyRequest): Promise<Passkey> {
    const user = await this.requireMember(userId);
    const response = request.response as RegistrationResponseJSON;
    await this.claimChallenge(response.response.clientDataJSON, 'register', userId);
    const { verifyRegistrationResponse, isoBase64URL } = await webauthn.get();
    const verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: () => true,
      expectedOrigin: this.origin,
      expectedRPID: this.rpId,
      requireUserVerification: true,
    }).catch(() => ({ verified: false as const }));
    if (!verification.verified) {
      throw new BadRequest(passkeyNotVerifiedMessage);
    }
    const { credential } = verification.registrationInfo;
    const row = await this.repository.insert({
      userId,
      credentialId: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name: request.name,
      createdAt: this.clock.now(),
    });
    if (row === null) throw new Conflict(passkeyExistsMessage);
    await this.notify(user, 'added', row.name);
    return toPasskey(row);
  }

  /** Removes one of the member's passkeys; another member's (or a made-up) id is 404. */
  async remove(userId: string, id: string): Promise<void> {
    const user = await this.requireMember(userId);
    // The member's only way in stays (another member's id is the 404 below).
    if (
      (await this.accounts.signInMethodCount(user)) <= 1 &&
      (await this.repository.list(userId)).some((row) => row.id === id)
    ) {
      throw new Conflict(lastSignInMethodPasskeyMessage);
    }
    const removed = await this.repository.delete(userId, id);
    if (removed === undefined) throw new NotFound(passkeyNotFoundMessage);
    await this.notify(user, 'removed', removed.name);
  }

  /** Options for a usernameless sign-in: no credentials are listed, the authenticator offers
   *  the passkeys it holds for this site. */
  async signInOptions(): Promise<WebAuthnOptions> {
    const { generateAuthenticationOptions } = await webauthn.get();
    const options = await generateAuthenticationOptions({
      rpID: this.rpId,
      timeout: passkeyChallengeLifetimeMs,
      userVerification: 'required',
    });
    await this.storeChallenge(options.challenge, 'sign_in', null);
    return { ...options };
  }

  /** A verified passkey signature starts a session, through the one sign-in path. */
  async signIn(request: PasskeySignInRequest, context: SignInContext): Promise<TokenPair> {
    const passkey = await this.verifySignature(request.response, 'sign_in', null);
    const user = await this.accounts.findUserById(passkey.userId);
    if (user === undefined) throw new Unauthorized(passkeyUnknownMessage);
    return this.sessions.signIn(user, context, 'passkey');
  }

  /** Options for the second step of a login: only the passkeys of the `mfa_token`'s member. */
  async secondFactorOptions(mfaToken: string): Promise<WebAuthnOptions> {
    const userId = await this.mfaTokenMember(mfaToken);
    const { generateAuthenticationOptions } = await webauthn.get();
    const options = await generateAuthenticationOptions({
      rpID: this.rpId,
      timeout: passkeyChallengeLifetimeMs,
      userVerification: 'required',
      allowCredentials: (await this.repository.list(userId)).map((row) => ({
        id: row.credentialId,
        transports: row.transports,
      })),
    });
    await this.storeChallenge(options.challenge, 'second_factor', userId);
    return { ...options };
  }

  /** The second step answered with a passkey of the member the `mfa_token` was issued to; the
   *  token is used up only once the signature is verified. */
  async signInAsSecondFactor(
    request: PasskeySecondFactorRequest,
    context: SignInContext,
  ): Promise<TokenPair> {
    const userId = await this.mfaTokenMember(request.mfa_token);
    await this.verifySignature(request.response, 'second_factor', userId);
    if ((await this.secondFactor.consumeMfaToken(request.mfa_token)) !== userId) {
      throw new Unauthorized(mfaTokenExpiredMessage);
    }
    const user = await this.accounts.findUserById(userId);
    if (user === undefined) throw new Unauthorized(mfaTokenExpiredMessage);
    return this.sessions.signIn(user, context, 'passkey');
  }

  /** Checks a sign-in signature against the stored passkey (of `userId` when given) and records
   *  the use; answers that passkey. */
  private async verifySignature(
    credential: PasskeySignInRequest['response'],
    purpose: ChallengePurpose,
    userId: string | null,
  ): Promise<PasskeyRow> {
    const response = credential as AuthenticationResponseJSON;
    await this.claimChallenge(response.response.clientDataJSON, purpose, userId);
    const passkey = await this.repository.findByCredentialId(response.id);
    if (passkey === undefined || (userId !== null && passkey.userId !== userId)) {
      throw new Unauthorized(passkeyUnknownMessage);
    }
    const { verifyAuthenticationResponse, isoBase64URL } = await webauthn.get();
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: () => true,
      expectedOrigin: this.origin,
      expectedRPID: this.rpId,
      credential: {
        id: passkey.credentialId,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: true,
    }).catch(() => ({ verified: false as const }));
    const now = this.clock.now();
    if (
      !verification.verified ||
      !(await this.repository.recordUse(passkey, verification.authenticationInfo.newCounter, now))
    ) {
      throw new Unauthorized(passkeyNotVerifiedMessage);
    }
    return passkey;
  }

  private async mfaTokenMember(mfaToken: string): Promise<string> {
    const userId = await this.secondFactor.mfaTokenOwner(mfaToken);
    if (userId === null) throw new Unauthorized(mfaTokenExpiredMessage);
    return userId;
  }

  private async storeChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    userId: string | null,
  ): Promise<void> {
    const expiresAt = new Date(this.clock.now().getTime() + passkeyChallengeLifetimeMs);
    await this.repository.insertChallenge(
      { challenge, purpose, userId, expiresAt },
      this.clock.now(),
    );
  }

  /** Uses up the challenge the response signed before anything else is checked, so a response
   *  counts once whatever its outcome; the verification then needs no further challenge check. */
  private async claimChallenge(
    clientDataJSON: string,
    purpose: ChallengePurpose,
    userId: string | null,
  ): Promise<void> {
    const challenge = await signedChallenge(clientDataJSON);
    const claimed =
      challenge !== '' &&
      (await this.repository.claimChallenge(challenge, purpose, userId, this.clock.now()));
    if (!claimed) throw new BadRequest(passkeyChallengeExpiredMessage);
  }

  private async requireMember(userId: string): Promise<UserRow> {
    const user = await this.accounts.findUserById(userId);
    if (!isActiveMember(user)) throw new NotFound('This account no longer exists.');
    return user;
  }

  /** Tells the member at once, so a passkey they did not add or remove is noticed. A mail that
   *  cannot be sent is logged; the change itself stands. */
  private async notify(user: UserRow, change: 'added' | 'removed', name: string): Promise<void> {
    const { companyName, publicUrl } = this.settings;
    const lines = [
      `Hello ${user.username},`,
      `The passkey “${name}” was ${change} ${change === 'added' ? 'to' : 'from'} your ${companyName} account.`,
      `If this was not you, change your password and check your passkeys under My Account: ${publicUrl}/profile`,
      companyName,
    ];
    try {
      await this.mailer.send({
        to: user.email,
        subject: `A passkey was ${change} ${change === 'added' ? 'to' : 'from'} your ${companyName} account`,
        text: lines.join('\n\n'),
        html: htmlParagraphs(lines),
      });
    } catch (error) {
      this.log.error({ err: error }, `passkey ${change} e-mail could not be sent`);
    }
  }
}
