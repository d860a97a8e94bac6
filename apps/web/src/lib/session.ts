import { useSyncExternalStore } from 'react';
import { accountPaths, type TokenPair } from '@dental/contracts';
import { apiSend, handOffTokens } from './api-client';
import { sessionStore, type SessionSnapshot } from './session-store';

export function useSession(): SessionSnapshot {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.getSnapshot);
}

/*
 * The tabs of one browser share the session without keeping it anywhere but in each tab
 * (docs/decisions/session-handoff.md). A tab that opens without tokens asks the open tabs; the
 * first to offer is taken and asks the server for a pair of the new tab's own, in the same
 * session. Signing out in one tab signs out the others.
 */
type TabMessage =
  | { kind: 'ask'; id: string }
  | { kind: 'offer'; id: string; from: string }
  | { kind: 'take'; id: string; from: string }
  | { kind: 'give'; id: string; tokens: TokenPair | null }
  | { kind: 'end' };

/** A lone tab shows /login after this; short enough not to be noticed. */
const offerWaitMs = 150;
/** Once a tab offered, it asks the server before it gives: a slow network gets this long. */
const giveWaitMs = 10_000;

let tabId = '';
let channel: BroadcastChannel | null = null;
let asking: { id: string; taken: boolean; timer: ReturnType<typeof setTimeout> } | null = null;
const waitListeners = new Set<() => void>();

function tell(message: TabMessage): void {
  channel?.postMessage(message);
}

function stopAsking(): void {
  if (asking === null) return;
  clearTimeout(asking.timer);
  asking = null;
  for (const listener of waitListeners) listener();
}

async function endSession(): Promise<void> {
  const { refresh } = sessionStore.getSnapshot();
  if (refresh !== null) {
    // The session ends locally even when the server cannot be told (offline, already revoked).
    await apiSend(accountPaths.logout, { method: 'POST', body: { refresh }, auth: false }).catch(
      () => undefined,
    );
  }
  sessionStore.clear();
}

async function hear(message: TabMessage): Promise<void> {
  const signedIn = sessionStore.getSnapshot().refresh !== null;
  switch (message.kind) {
    case 'ask':
      if (signedIn) tell({ kind: 'offer', id: message.id, from: tabId });
      return;
    case 'offer':
      if (asking?.id !== message.id || asking.taken) return;
      clearTimeout(asking.timer);
      asking = { id: message.id, taken: true, timer: setTimeout(stopAsking, giveWaitMs) };
      tell({ kind: 'take', id: message.id, from: message.from });
      return;
    case 'take':
      if (message.from === tabId) {
        tell({ kind: 'give', id: message.id, tokens: signedIn ? await handOffTokens() : null });
      }
      return;
    case 'give':
      if (asking?.id !== message.id) return;
      if (message.tokens !== null) sessionStore.save(message.tokens);
      stopAsking();
      return;
    case 'end':
      // This tab's own sign-in ends too, on the server as well: another sign-in of this browser
      // would otherwise stay live with no tab showing it.
      if (signedIn) await endSession();
  }
}

/** Called once at start: listens to the other tabs, and asks them for the session when this tab
 *  has none. Browsers without BroadcastChannel keep one session per tab. */
export function shareSessionWithOtherTabs(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  tabId = crypto.randomUUID();
  channel = new BroadcastChannel('dental.session');
  channel.onmessage = (event: MessageEvent<TabMessage>) => {
    void hear(event.data);
  };
  if (sessionStore.getSnapshot().refresh !== null) return;
  const id = crypto.randomUUID();
  asking = { id, taken: false, timer: setTimeout(stopAsking, offerWaitMs) };
  tell({ kind: 'ask', id });
}

/** True while this tab waits for the other tabs' session; RequireAuth waits with it. */
export function useWaitingForOtherTabs(): boolean {
  return useSyncExternalStore(
    (listener) => {
      waitListeners.add(listener);
      return () => {
        waitListeners.delete(listener);
      };
    },
    () => asking !== null,
  );
}

/** Revokes the refresh token on the server, then forgets the tokens; the providers then drop
 *  every cached answer (the user and their data) and RequireAuth shows /login. The other tabs
 *  of the browser are told to do the same. */
export async function logout(): Promise<void> {
  tell({ kind: 'end' });
  await endSession();
}
