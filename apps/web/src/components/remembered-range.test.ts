import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from '../lib/session-store';
import { rememberRange, rememberedRange } from './remembered-range';

const tokens = { access: 'access-token', refresh: 'refresh-token' };
const march = { startDate: '2026-03-01', endDate: '2026-03-31' };

afterEach(() => {
  sessionStore.clear();
  sessionStorage.clear();
});

describe('remembered list dates', () => {
  it('come back for the same list in the same session', () => {
    sessionStore.save(tokens);
    rememberRange('photos', march);
    expect(rememberedRange('photos')).toEqual(march);
    expect(rememberedRange('records')).toBeNull();
  });

  it('are forgotten when the member signs out, while keys of other owners stay', () => {
    sessionStore.save(tokens);
    rememberRange('photos', march);
    rememberRange('appointments', { startDate: '', endDate: '' });
    sessionStorage.setItem('dental.sign-out-notice', 'kept');
    sessionStore.clear();
    expect(rememberedRange('photos')).toBeNull();
    expect(rememberedRange('appointments')).toBeNull();
    expect(sessionStorage.getItem('dental.sign-out-notice')).toBe('kept');
  });
});
