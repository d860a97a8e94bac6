import { z } from 'zod';
import { planName } from './plans';
import { singleLineText } from './text';
import { mfaChallenge, secondFactorCode } from './second-factor';

/** Routes of docs/product/accounts.md#account-calls, plus token refresh and logout
 *  (docs/decisions). */
export const accountPaths = {
  account: '/api/account/',
  register: '/api/account/register/',
  login: '/api/account/login/',
  refresh: '/api/account/token/refresh/',
  /** POST {refresh}: a refresh that also answers a second pair, in the same session, for a new
   *  tab of the same browser (docs/decisions/session-handoff.md). */
  handoff: '/api/account/token/handoff/',
  logout: '/api/account/logout/',
  /** Re-checks the password so that the session counts as recently signed in. */
  reauthenticate: '/api/account/reauthenticate/',
  forgetPassword: '/api/account/forget-password/',
  updatePassword: '/api/account/update-password/',
  /** POST {key}: 204 while a reset link can still set a password, else the same 400 as
   *  update-password; uses nothing up (docs/decisions/password-reset.md). */
  checkResetKey: '/api/account/update-password/check/',
  socialMediaAccount: '/api/account/social_media_account/',
  /** PUT: the member accepts the disclaimer before uploads (docs/decisions/upload-disclaimer.md). */
  uploadDisclaimer: '/api/account/upload-disclaimer/',
  /** POST, signed in: sends the confirmation e-mail again (docs/decisions/email-confirmation.md). */
  emailConfirmation: '/api/account/email-confirmation/',
  /** POST {key}, from the e-mailed link; no sign-in needed. */
  confirmEmail: '/api/account/email-confirmation/confirm/',
  /** PUT {email}: asks to change the address; it changes once the new one is confirmed. */
  email: '/api/account/email/',
} as const;

export const passwordMinLength = 8;

export const email = z.email('Enter a valid e-mail address.').max(254);
export const password = singleLineText()
  .min(passwordMinLength, `Password must be at least ${passwordMinLength} characters.`)
  .max(128, 'Password must be at most 128 characters.');
export const username = singleLineText()
  .trim()
  .min(1, 'Name is required.')
  .max(100, 'Name must be at most 100 characters.');

/** A member keeps a patient record; the staff roles run the clinic console
 *  (docs/decisions/clinic-staff.md). */
export const accountRoles = ['member', 'practitioner', 'clinic_admin'] as const;
export const accountRole = z.enum(accountRoles);
export type AccountRole = z.infer<typeof accountRole>;
export type StaffRole = Exclude<AccountRole, 'member'>;

export const socialProviders = ['google', 'apple', 'facebook'] as const;
export const socialProvider = z.enum(socialProviders);
export type SocialProvider = z.infer<typeof socialProvider>;

/** FHIR's administrative gender, which a health record carries (docs/decisions/fhir-export.md). */
export const administrativeSexes = ['male', 'female', 'other', 'unknown'] as const;
export const administrativeSex = z.enum(
  administrativeSexes,
  'Choose male, female, other or unknown.',
);
export type AdministrativeSex = z.infer<typeof administrativeSex>;

export const linkedSocialAccount = z
  .object({ email: z.string().nullable(), social_media_account: z.string() })
  .nullable();
export type LinkedSocialAccount = z.infer<typeof linkedSocialAccount>;

/** The account (docs/product/accounts.md#account-calls), with the storage figures the Profile's
 *  usage bar needs (docs/decisions/storage-usage-on-profile.md). */
export const account = z.object({
  id: z.uuid(),
  username: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  customer_level: planName,
  points: z.number().int(),
  points_expired_at: z.iso.datetime({ offset: true }).nullable(),
  google_account: linkedSocialAccount,
  apple_account: linkedSocialAccount,
  facebook_account: linkedSocialAccount,
  /** Bytes of photos and medical files stored, counted against the plan's quota. */
  storage_used_bytes: z.number().int().nonnegative(),
  /** The storage quota of the member's plan in bytes (docs/product/records.md#storage-quota). */
  storage_quota_bytes: z.number().int().positive(),
  /** When the member accepted the disclaimer before uploads, or null: it is asked once
   *  (docs/decisions/upload-disclaimer.md). */
  upload_disclaimer_accepted_at: z.iso.datetime({ offset: true }).nullable(),
  /** A member, or a staff account of the clinic console (docs/decisions/clinic-staff.md). */
  role: accountRole,
  /** Whether the member confirmed `email`; reminders and notices go only to a confirmed
   *  address (docs/decisions/email-confirmation.md). */
  email_confirmed: z.boolean(),
  /** A new address the member asked to change to, waiting for its confirmation; null when none. */
  pending_email: z.string().nullable(),
  /** Health record details: optional, never needed to use the app; the data export's FHIR
   *  Patient carries them when set (docs/decisions/fhir-export.md). */
  given_name: z.string().nullable(),
  family_name: z.string().nullable(),
  /** YYYY-MM-DD. */
  birth_date: z.string().nullable(),
  sex: administrativeSex.nullable(),
});
export type Account = z.infer<typeof account>;

const confirmationKey = singleLineText()
  .min(1, 'The confirmation link is missing its key.')
  .max(256);
export const confirmEmailRequest = z.object({ key: confirmationKey });
export type ConfirmEmailRequest = z.infer<typeof confirmEmailRequest>;
export const changeEmailRequest = z.object({ email });
export type ChangeEmailRequest = z.infer<typeof changeEmailRequest>;

export const invalidConfirmationKeyMessage =
  'This confirmation link is invalid, has already been used or has expired. Sign in and ask for a new one.';
export const emailConfirmedMessage = 'Your e-mail address is confirmed.';
export const sameEmailMessage = 'This is already the e-mail address of your account.';

export const nativeLoginRequest = z.object({
  login_type: z.literal('native'),
  email: singleLineText().trim().min(1, 'E-mail is required.').max(254),
  password: singleLineText().min(1, 'Password is required.').max(128),
});
export const loginRequest = nativeLoginRequest;
export type LoginRequest = z.infer<typeof loginRequest>;

export const tokenPair = z.object({ access: z.string(), refresh: z.string() });
export type TokenPair = z.infer<typeof tokenPair>;

/** The answer of the hand-off: the caller's next pair, and `handoff`, the new tab's own. */
export const tokenHandoff = tokenPair.extend({ handoff: tokenPair });
export type TokenHandoff = z.infer<typeof tokenHandoff>;

/** POST /api/account/login/ answers a token pair, or a challenge when a second step is due
 *  (docs/decisions/second-factor.md). */
export const loginResponse = z.union([tokenPair, mfaChallenge]);
export type LoginResponse = z.infer<typeof loginResponse>;

export const refreshRequest = z.object({ refresh: singleLineText().min(1).max(512) });

/** The step-up before sensitive actions (docs/decisions/session-timeouts.md): the password, or
 *  a code of the member's second factor (docs/decisions/second-factor.md). */
export const reauthenticateRequest = z
  .object({
    password: singleLineText().min(1, 'Password is required.').max(128).optional(),
    code: secondFactorCode.optional(),
  })
  .refine((body) => body.password !== undefined || body.code !== undefined, {
    message: 'Password is required.',
    path: ['password'],
  });
export type ReauthenticateRequest = z.infer<typeof reauthenticateRequest>;

export const forgetPasswordRequest = z.object({ email });
const resetKey = singleLineText().min(1, 'The reset link is missing its key.').max(256);
export const updatePasswordRequest = z.object({ password, key: resetKey });
export type UpdatePasswordRequest = z.infer<typeof updatePasswordRequest>;
export const checkResetKeyRequest = z.object({ key: resetKey });
export type CheckResetKeyRequest = z.infer<typeof checkResetKeyRequest>;

/** Answer of forget-password and update-password: the sentence the UI shows. */
export const messageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

export const forgetPasswordSuccess =
  'Reset success! Please check your email to change the password';
export const passwordMismatchMessage = 'Password and Confirm Password should be the same.';
export const termsNotAgreedMessage = 'Please agree to the Terms of Service and the Privacy Policy.';

/** How each social sign-in provider is named in messages and on buttons. */
export const socialProviderNames: Record<SocialProvider, string> = {
  google: 'Google',
  apple: 'Apple',
  facebook: 'Facebook',
};

/** The social login request (docs/product/accounts.md#social-sign-in): the provider's token
 *  (Google/Facebook access, Apple identity). */
export const socialLoginRequest = z.object({
  login_type: socialProvider,
  token: singleLineText().min(1, 'The sign-in token is missing.').max(8192),
  /** Apple only: the nonce the browser made for this sign-in; the identity token carries its
   *  SHA-256 (docs/decisions/social-sign-in.md). */
  nonce: singleLineText().min(16).max(256).optional(),
});
export type SocialLoginRequest = z.infer<typeof socialLoginRequest>;

/** Every login body the server accepts: native credentials or a social provider's token. */
export const anyLoginRequest = z.discriminatedUnion('login_type', [
  nativeLoginRequest,
  socialLoginRequest,
]);
export type AnyLoginRequest = z.infer<typeof anyLoginRequest>;

/** The social bind payload (docs/product/accounts.md#account-calls) for POST
 *  /api/account/social_media_account/. */
export const socialBindRequest = socialLoginRequest;
export type SocialBindRequest = z.infer<typeof socialBindRequest>;

/** Answer of POST /api/account/register/ (201): the new account's id and e-mail. */
export const registerResponse = z.object({ id: z.uuid(), email: z.string() });
export type RegisterResponse = z.infer<typeof registerResponse>;

export const updatePasswordSuccess =
  'Your password has been updated. Please log in with your new password.';
