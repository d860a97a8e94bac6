import { useSyncExternalStore } from 'react';
import { delegationMemberParam } from '@dental/contracts';
import { sessionStore } from './session-store';

/** Another member's record that the signed-in member views (docs/product/proxy-access.md). */
export interface ViewedRecord {
  id: string;
  username: string;
}

// Kept for the tab like the tokens: a reload stays on the record, a new tab starts on 'My record'.
const storageKey = 'dental.viewed-record';

type Listener = () => void;
const listeners = new Set<Listener>();

function read(): ViewedRecord | null {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(storageKey) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { id, username } = value as Record<string, unknown>;
    return typeof id === 'string' && typeof username === 'string' ? { id, username } : null;
  } catch {
    return null;
  }
}

let snapshot = read();

function publish(next: ViewedRecord | null): void {
  if (next === null) sessionStorage.removeItem(storageKey);
  else sessionStorage.setItem(storageKey, JSON.stringify(next));
  snapshot = next;
  for (const listener of listeners) listener();
}

/** Whose record the health screens show: null for the member's own. */
export const viewedRecordStore = {
  getSnapshot: (): ViewedRecord | null => snapshot,
  subscribe: (listener: Listener): (() => void) => {
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  },
  view: (record: ViewedRecord | null): void => {
    publish(record);
  },
};

// Signing out (or a session that ends) goes back to the member's own record.
sessionStore.subscribe(() => {
  if (sessionStore.getSnapshot().access === null && snapshot !== null) publish(null);
});

/** The record being viewed, or null on the member's own. */
export function useViewedRecord(): ViewedRecord | null {
  return useSyncExternalStore(viewedRecordStore.subscribe, viewedRecordStore.getSnapshot);
}

/** True while another's record is shown: every add, edit and delete control is hidden. */
export function useReadOnlyRecord(): boolean {
  return useViewedRecord() !== null;
}

/**
 * The API paths of the health data a delegate may read (photos and X-rays, records, appointments,
 * Dental AI results), reads and writes alike: while another's record is viewed each of them
 * names it with `?member=`, so a read is of that record and a write is refused by the server
 * rather than landing in the member's own record.
 */
const healthDataPath = /^\/api\/(oral-photo|medical-record|appointment)\/|^\/api\/dental-ai\/.+/;

/** `path` with `?member=` of the viewed record where it is a health-data call. */
export function withViewedMember(path: string, record = snapshot): string {
  if (record === null || !healthDataPath.test(path)) return path;
  const separator = path.includes('?') ? '&' : '?';
  return `${path}${separator}${delegationMemberParam}=${encodeURIComponent(record.id)}`;
}
