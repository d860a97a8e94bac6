import { problemTypes } from '@dental/contracts';
import type { ApiError } from './api-client';

// Kept in sessionStorage beside the tokens, so that it survives the redirect to /login.
const noticeKey = 'dental.signOutNotice';

/** The problem types of a session that the server ended on its own (idle or lifetime). */
const timedOut = new Set<string>([problemTypes.sessionIdle, problemTypes.sessionLifetime]);

/** Keeps the server's explanation when the session timed out (docs/decisions/session-timeouts.md);
 *  other refusals leave nothing to explain. */
export function noteSessionEnd(error: ApiError): void {
  if (timedOut.has(error.type)) sessionStorage.setItem(noticeKey, error.detail);
}

/** The explanation the Login screen shows once, or null. */
export function signOutNotice(): string | null {
  return sessionStorage.getItem(noticeKey);
}

export function clearSignOutNotice(): void {
  sessionStorage.removeItem(noticeKey);
}
