/** Whether a tab without a session waits for the other tabs' (docs/decisions/session-handoff.md):
 *  'idle' until a protected screen asks them, 'done' once one gave the session or none did in
 *  time. Apart from session.ts and tab-session.ts so that neither imports the other. */
type Wait = 'idle' | 'asking' | 'done';

let wait: Wait = typeof BroadcastChannel === 'undefined' ? 'done' : 'idle';
const listeners = new Set<() => void>();

export const otherTabsWait = {
  get: (): Wait => wait,
  set: (next: Wait): void => {
    wait = next;
    for (const listener of listeners) listener();
  },
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
};
