import { accountPaths, tokenHandoff, type TokenPair } from '@dental/contracts';
import { apiSend, rotateAfterOthers } from './api-client';
import { otherTabsWait } from './other-tabs-wait';
import { sessionStore } from './session-store';

/*
 * The session among the tabs of one browser, kept nowhere but in each tab
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

const tabId = crypto.randomUUID();
let channel: BroadcastChannel | null = null;
let asking: { id: string; taken: boolean; timer: ReturnType<typeof setTimeout> } | null = null;

function tell(message: TabMessage): void {
  channel?.postMessage(message);
}

function stopAsking(): void {
  if (asking === null) return;
  clearTimeout(asking.timer);
  asking = null;
  otherTabsWait.set('done');
}

/**
 * The tokens of a new tab of this browser, of the same session but its own: this tab's refresh
 * token is used up and both tabs get a next pair. Null when this tab has no session or the server
 * refused.
 */
async function handOffTokens(): Promise<TokenPair | null> {
  return (await rotateAfterOthers(accountPaths.handoff, tokenHandoff))?.handoff ?? null;
}

/** Signs the tab out locally, after telling the server (offline or already revoked: locally
 *  anyway). */
async function endSession(): Promise<void> {
  const { refresh } = sessionStore.getSnapshot();
  if (refresh !== null) {
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

/** Listens to the other tabs of the browser (once per tab). */
export function join(): void {
  if (channel !== null || typeof BroadcastChannel === 'undefined') return;
  channel = new BroadcastChannel('dental.session');
  channel.onmessage = (event: MessageEvent<TabMessage>) => {
    void hear(event.data);
  };
}

/** Asks the open tabs for their session; the wait ends when one gave it or none did in time. */
export function askForSession(): void {
  const id = crypto.randomUUID();
  asking = { id, taken: false, timer: setTimeout(stopAsking, offerWaitMs) };
  tell({ kind: 'ask', id });
}

/** Revokes the refresh token on the server, then forgets the tokens; the providers then drop
 *  every cached answer (the user and their data) and RequireAuth shows /login. The other tabs
 *  of the browser are told to do the same. */
export async function logout(): Promise<void> {
  join();
  tell({ kind: 'end' });
  await endSession();
}
