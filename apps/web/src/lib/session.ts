import { useSyncExternalStore } from 'react';
import { accountPaths } from '@dental/contracts';
import { apiSend } from './api-client';
import { sessionStore, type SessionSnapshot } from './session-store';

export function useSession(): SessionSnapshot {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.getSnapshot);
}

/** Revokes the refresh token on the server, then forgets the tokens; the providers then drop
 *  every cached answer (the user and their data) and RequireAuth shows /login. */
export async function logout(): Promise<void> {
  const { refresh } = sessionStore.getSnapshot();
  if (refresh !== null) {
    // The session ends locally even when the server cannot be told (offline, already revoked).
    await apiSend(accountPaths.logout, { method: 'POST', body: { refresh }, auth: false }).catch(
      () => undefined,
    );
  }
  sessionStore.clear();
}
