import { useEffect, useSyncExternalStore } from 'react';
import { otherTabsWait } from './other-tabs-wait';
import { sessionStore, type SessionSnapshot } from './session-store';

export function useSession(): SessionSnapshot {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.getSnapshot);
}

/*
 * The tabs of one browser share the session (docs/decisions/session-handoff.md). What talks to
 * the other tabs (tab-session.ts) is loaded only by a signed-in tab, or by a protected screen
 * opened without a session, so that /login carries none of it.
 */
const otherTabs = () => import('./tab-session');

/** Called once at start: a tab that is or becomes signed in listens to the other tabs, to give
 *  them the session and to sign out with them. Only a tab never signed in asks for a session, so
 *  one signed out is never handed the session it just ended. */
export function shareSessionWithOtherTabs(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const listenWhenSignedIn = () => {
    if (sessionStore.getSnapshot().refresh === null) return;
    if (otherTabsWait.get() !== 'done') otherTabsWait.set('done');
    void otherTabs().then((tabs) => {
      tabs.join();
    });
  };
  listenWhenSignedIn();
  sessionStore.subscribe(listenWhenSignedIn);
}

/** True while a protected screen opened without a session waits for another tab's; the first
 *  render counts as waiting, so the screen never flashes /login before asking. */
export function useWaitingForOtherTabs(): boolean {
  const current = useSyncExternalStore(otherTabsWait.subscribe, otherTabsWait.get);
  const signedIn = useSession().refresh !== null;
  useEffect(() => {
    if (signedIn || otherTabsWait.get() !== 'idle') return;
    otherTabsWait.set('asking');
    otherTabs()
      .then((tabs) => {
        tabs.join();
        tabs.askForSession();
      })
      .catch(() => {
        otherTabsWait.set('done');
      });
  }, [signedIn]);
  return current !== 'done';
}
