import { z } from 'zod';
import { singleLineText } from './text';

/** Passkeys (WebAuthn): registered from the Profile, used to sign in
 *  (docs/product/accounts.md#passkeys, docs/decisions/passkeys.md). */
export const passkeyPaths = {
  list: '/api/account/passkeys/',
  registrationOptions: '/api/account/passkeys/options/',
  signInOptions: '/api/account/login/passkey/options/',
  signIn: '/api/account/login/passkey/',
  /** The second step of a password or social login answered with a passkey of that member. */
  secondFactorOptions: '/api/account/login/mfa/passkey/options/',
  secondFactor: '/api/account/login/mfa/passkey/',
} as const;

/** A WebAuthn ceremony's challenge is valid this long and only once. */
export const passkeyChallengeLifetimeMs = 5 * 60 * 1000;

export const passkeyNameMaxLength = 60;

export const passkeyName = singleLineText()
  .trim()
  .min(1, 'Name the passkey, for example after the device that holds it.')
  .max(passkeyNameMaxLength, `The name must be at most ${passkeyNameMaxLength} characters.`);

/** One of the member's passkeys as the Profile lists it; the key itself never leaves the server. */
export const passkey = z.object({
  id: z.uuid(),
  name: z.string(),
  created_at: z.iso.datetime({ offset: true }),
  last_used_at: z.iso.datetime({ offset: true }).nullable(),
});
export type Passkey = z.infer<typeof passkey>;

export const passkeyList = z.array(passkey);

/** Base64url fields of a WebAuthn response (an attestation object stays far below 64 KiB). */
const base64url = z
  .string()
  .max(65536)
  .regex(/^[A-Za-z0-9_-]*$/, 'This is not a WebAuthn response.');

/** The WebAuthn options the browser hands to the authenticator, as @simplewebauthn makes them;
 *  their many optional members are the library's to check, so only the challenge is named. */
export const webAuthnOptions = z.looseObject({ challenge: z.string() });
export type WebAuthnOptions = z.infer<typeof webAuthnOptions>;

/** What the browser's authenticator answered (RegistrationResponseJSON /
 *  AuthenticationResponseJSON); @simplewebauthn/server verifies every member of it. */
const credentialResponse = <Shape extends z.ZodRawShape>(response: Shape) =>
  z.object({
    id: base64url.min(1).max(1366),
    rawId: base64url.min(1).max(1366),
    type: z.literal('public-key'),
    response: z.looseObject({ clientDataJSON: base64url.min(1), ...response }),
    clientExtensionResults: z.looseObject({}),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  });

export const registrationCredential = credentialResponse({
  attestationObject: base64url.min(1),
  transports: z.array(z.string().max(32)).max(16).optional(),
});

export const authenticationCredential = credentialResponse({
  authenticatorData: base64url.min(1),
  signature: base64url.min(1),
  userHandle: base64url.optional(),
});

export const addPasskeyRequest = z.object({
  name: passkeyName,
  response: registrationCredential,
});
export type AddPasskeyRequest = z.infer<typeof addPasskeyRequest>;

export const passkeySignInRequest = z.object({ response: authenticationCredential });
export type PasskeySignInRequest = z.infer<typeof passkeySignInRequest>;

const mfaToken = singleLineText().min(1, 'The sign-in token is missing.').max(512);

export const passkeySecondFactorOptionsRequest = z.object({ mfa_token: mfaToken });

export const passkeySecondFactorRequest = z.object({
  mfa_token: mfaToken,
  response: authenticationCredential,
});
export type PasskeySecondFactorRequest = z.infer<typeof passkeySecondFactorRequest>;

export const passkeyNotVerifiedMessage =
  'This passkey could not be verified. Please try again or use another sign-in method.';
export const passkeyChallengeExpiredMessage =
  'This passkey request has expired or was already used. Please try again.';
export const lastSignInMethodPasskeyMessage =
  'This passkey is the only way you can sign in, so it cannot be removed. Set a password (Forgot Password? on the login screen) or connect another account first.';
export const passkeyUnknownMessage =
  'This passkey is not registered with your account. Please sign in another way.';
