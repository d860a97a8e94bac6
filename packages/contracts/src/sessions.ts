import { z } from 'zod';
import { password, passwordMismatchMessage } from './account';
import { singleLineText } from './text';

/** The member's signed-in devices and the password change while signed in
 *  (docs/decisions/signed-in-devices.md). */
export const sessionPaths = {
  /** GET lists the live sessions; DELETE ends every one but the caller's own. */
  sessions: '/api/account/sessions/',
  /** DELETE `{sessions}{id}/` ends one session. */
  session: (id: string) => `/api/account/sessions/${id}/`,
  changePassword: '/api/account/password/',
} as const;

/** One live session: a device the member is signed in on. */
export const deviceSession = z.object({
  id: z.uuid(),
  created_at: z.iso.datetime({ offset: true }),
  last_used_at: z.iso.datetime({ offset: true }),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  /** The session the request itself was made with. */
  current: z.boolean(),
  /** The device's notifications (docs/decisions/web-push.md): its subscription, or null when off. */
  push_subscription_id: z.uuid().nullable(),
  /** False for a device signed out by inactivity or its session's age that still has
   *  notifications on: listed so that they can be turned off. */
  signed_in: z.boolean(),
});
export type DeviceSession = z.infer<typeof deviceSession>;
export const deviceSessionList = z.array(deviceSession);

export const currentPasswordRequiredMessage = 'Current Password is required.';

/** The new password follows the sign-up and reset rules; the two copies must match. */
export const changePasswordRequest = z
  .object({
    current_password: singleLineText().min(1, currentPasswordRequiredMessage).max(128),
    password,
    confirm_password: singleLineText().max(128),
  })
  .refine((request) => request.password === request.confirm_password, {
    message: passwordMismatchMessage,
    path: ['confirm_password'],
  });
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;

export const wrongCurrentPasswordMessage = 'The current password is incorrect.';
export const changePasswordSuccess =
  'Your password has been changed. Your other devices have been signed out.';

const browsers: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/OPR\//, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrom(e|ium)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const systems: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/**
 * 'Chrome on Windows' from a user agent; 'Unknown browser' when it names none we know. The words
 * the member reads are also the device family: a sign-in whose words no earlier session of the
 * member had is from a new device (docs/decisions/signed-in-devices.md).
 */
export function describeBrowser(userAgent: string | null): string {
  if (userAgent === null) return 'Unknown browser';
  const browser = browsers.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = systems.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser === undefined)
    return system === undefined ? 'Unknown browser' : `A browser on ${system}`;
  return system === undefined ? browser : `${browser} on ${system}`;
}
