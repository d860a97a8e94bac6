import { z } from 'zod';
import { singleLineText } from './text';

/** The second factor (docs/decisions/second-factor.md): TOTP with recovery codes. */
export const secondFactorPaths = {
  /** GET: whether the member has an authenticator and how many recovery codes are left. */
  status: '/api/account/mfa/',
  /** POST starts an enrolment (password), DELETE removes the authenticator (password + code). */
  totp: '/api/account/mfa/totp/',
  confirmTotp: '/api/account/mfa/totp/confirm/',
  /** The second step of a login: the `mfa_token` of the first step and a code. */
  loginWithCode: '/api/account/login/mfa/',
} as const;

/** How many recovery codes a confirmed authenticator comes with. */
export const recoveryCodeCount = 10;

export const wrongCodeMessage =
  'This code is not valid. Enter the current code from your authenticator app or an unused recovery code.';
export const mfaTokenExpiredMessage =
  'Your sign-in took too long or was already completed. Please log in again.';

/** A 6-digit authenticator code or a recovery code; spaces and dashes are ignored. */
export const secondFactorCode = singleLineText()
  .trim()
  .min(1, 'Enter the code.')
  .max(32, 'This code is too long.');

const passwordField = singleLineText().min(1, 'Password is required.').max(128);

export const startTotpRequest = z.object({ password: passwordField });
export type StartTotpRequest = z.infer<typeof startTotpRequest>;

/** The secret to type in, and the same as an otpauth:// URI for the QR code. */
export const totpEnrolment = z.object({ secret: z.string(), otpauth_uri: z.string() });
export type TotpEnrolment = z.infer<typeof totpEnrolment>;

export const confirmTotpRequest = z.object({ code: secondFactorCode });
export type ConfirmTotpRequest = z.infer<typeof confirmTotpRequest>;

/** Shown once: only their hashes are kept. */
export const recoveryCodes = z.object({
  recovery_codes: z.array(z.string()).length(recoveryCodeCount),
});
export type RecoveryCodes = z.infer<typeof recoveryCodes>;

export const removeTotpRequest = z.object({ password: passwordField, code: secondFactorCode });
export type RemoveTotpRequest = z.infer<typeof removeTotpRequest>;

export const secondFactorStatus = z.object({
  totp_enabled: z.boolean(),
  recovery_codes_left: z.number().int().min(0),
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatus>;

/** The first step's answer for an account with a second factor: no tokens yet. */
export const mfaChallenge = z.object({ mfa_required: z.literal(true), mfa_token: z.string() });
export type MfaChallenge = z.infer<typeof mfaChallenge>;

export const loginWithCodeRequest = z.object({
  mfa_token: singleLineText().min(1, 'The sign-in token is missing.').max(512),
  code: secondFactorCode,
});
export type LoginWithCodeRequest = z.infer<typeof loginWithCodeRequest>;
