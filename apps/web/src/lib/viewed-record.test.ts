import { afterEach, describe, expect, it } from 'vitest';
import { sessionStore } from './session-store';
import { viewedRecordStore, withViewedMember } from './viewed-record';

const alex = { id: '6f1c1c9e-8a53-4c39-9d0c-1b1b0c2a7e11', username: 'Alex' };

afterEach(() => {
  viewedRecordStore.view(null);
});

describe('withViewedMember', () => {
  it.each([
    '/api/oral-photo/',
    '/api/oral-photo/abc/',
    '/api/medical-record/abc/medical-file/',
    '/api/appointment/abc/',
    '/api/dental-ai/results/',
    '/api/dental-ai/abc/',
  ])('names the viewed record on the health-data call %s', (path) => {
    expect(withViewedMember(path, alex)).toBe(`${path}?member=${alex.id}`);
  });

  it('keeps the filters of a list', () => {
    expect(withViewedMember('/api/oral-photo/?photoType=X-ray', alex)).toBe(
      `/api/oral-photo/?photoType=X-ray&member=${alex.id}`,
    );
  });

  it.each([
    '/api/account/',
    '/api/dental-ai/',
    '/api/delegation/',
    '/api/delegation/received/',
    '/api/share-link/',
    '/api/account/activity/',
  ])('leaves the member’s own call %s alone', (path) => {
    expect(withViewedMember(path, alex)).toBe(path);
  });

  it('changes nothing on the member’s own record', () => {
    expect(withViewedMember('/api/oral-photo/', null)).toBe('/api/oral-photo/');
  });
});

describe('viewedRecordStore', () => {
  it('keeps the record for the tab and forgets it when the session ends', () => {
    sessionStore.save({ access: 'a', refresh: 'r' });
    viewedRecordStore.view(alex);
    expect(viewedRecordStore.getSnapshot()).toEqual(alex);
    expect(sessionStorage.getItem('dental.viewed-record')).toContain(alex.id);
    expect(withViewedMember('/api/appointment/')).toBe(`/api/appointment/?member=${alex.id}`);
    sessionStore.clear();
    expect(viewedRecordStore.getSnapshot()).toBeNull();
    expect(sessionStorage.getItem('dental.viewed-record')).toBeNull();
  });
});
