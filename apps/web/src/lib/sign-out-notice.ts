import { problemTypes, type Problem } from '@dental/contracts';

// Kept in sessionStorage beside the tokens, so that it survives the redirect to /login.
const noticeKey = 'dental.signOutNotice';

/** What the Login screen says once about how the patient got there. */
export interface LoginNotice {
  title: string;
  text: string;
}

/** The problem types of a session that the server ended on its own (idle or lifetime). */
const timedOut = new Set<string>([problemTypes.sessionIdle, problemTypes.sessionLifetime]);

/** Leaves a notice for the next Login screen: sign-up, password reset and account deletion end
 *  there, and the patient should read what happened (docs/decisions/patient-grade-defects.md). */
export function leaveLoginNotice(notice: LoginNotice): void {
  sessionStorage.setItem(noticeKey, JSON.stringify(notice));
}

/** Keeps the server's explanation when the session timed out (docs/decisions/session-timeouts.md);
 *  other refusals leave nothing to explain. It takes the problem's fields rather than the API
 *  client's error, which calls it, so that the two modules do not import each other. */
export function noteSessionEnd(error: Pick<Problem, 'type' | 'detail'>): void {
  if (timedOut.has(error.type)) {
    leaveLoginNotice({ title: 'You have been signed out', text: error.detail });
  }
}

/** The notice the Login screen shows once, or null. */
export function signOutNotice(): LoginNotice | null {
  const stored = sessionStorage.getItem(noticeKey);
  if (stored === null) return null;
  try {
    const notice = JSON.parse(stored) as Partial<LoginNotice>;
    return typeof notice.title === 'string' && typeof notice.text === 'string'
      ? { title: notice.title, text: notice.text }
      : null;
  } catch {
    return null;
  }
}

export function clearSignOutNotice(): void {
  sessionStorage.removeItem(noticeKey);
}
