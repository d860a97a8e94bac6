import type { TokenPair } from '@dental/contracts';

export interface SessionSnapshot {
  access: string | null;
  refresh: string | null;
}

// Tokens live in sessionStorage (docs/product/accounts.md#session): they survive a reload but not
// the closing of the tab.
const accessKey = 'dental.access';
const refreshKey = 'dental.refresh';

/**
 * What a screen keeps for the signed-in person's tab (a list's dates, say) is named under this
 * prefix, so that signing out forgets it without the entry chunk importing every such screen.
 */
export const signedInKeyPrefix = 'dental.signed-in.';

function forgetSignedInKeys(): void {
  const keys = Array.from({ length: sessionStorage.length }, (_, index) =>
    sessionStorage.key(index),
  );
  for (const key of keys) if (key?.startsWith(signedInKeyPrefix)) sessionStorage.removeItem(key);
}

type Listener = () => void;
const listeners = new Set<Listener>();

let snapshot: SessionSnapshot = {
  access: sessionStorage.getItem(accessKey),
  refresh: sessionStorage.getItem(refreshKey),
};

function publish(next: SessionSnapshot): void {
  snapshot = next;
  for (const listener of listeners) listener();
}

/** The tokens of the signed-in user, as an external store React reads with useSyncExternalStore. */
export const sessionStore = {
  getSnapshot: (): SessionSnapshot => snapshot,
  subscribe: (listener: Listener): (() => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  save: (tokens: TokenPair): void => {
    sessionStorage.setItem(accessKey, tokens.access);
    sessionStorage.setItem(refreshKey, tokens.refresh);
    publish({ access: tokens.access, refresh: tokens.refresh });
  },
  clear: (): void => {
    sessionStorage.removeItem(accessKey);
    sessionStorage.removeItem(refreshKey);
    forgetSignedInKeys();
    if (snapshot.access === null && snapshot.refresh === null) return;
    publish({ access: null, refresh: null });
  },
};
