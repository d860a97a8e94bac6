import { describe, expect, it } from 'vitest';
import { auditActions, auditResourceTypes } from '@dental/contracts';
import { describeActivity, describeBrowser } from './activity-wording';

describe('describeActivity', () => {
  it.each([
    [{ action: 'read', resource_type: 'x_ray', result: 'success' }, 'You opened an X-ray'],
    [{ action: 'read', resource_type: 'photo', result: 'success' }, 'You opened a photo'],
    [
      { action: 'read', resource_type: 'oral_photo_list', result: 'success' },
      'You viewed your photos and X-rays',
    ],
    [
      { action: 'read', resource_type: 'oral_photo', result: 'failure' },
      'Failed attempt to open a photo or X-ray',
    ],
    [
      { action: 'create', resource_type: 'medical_record', result: 'success' },
      'You added a medical record',
    ],
    [
      { action: 'change', resource_type: 'appointment', result: 'success' },
      'You changed an appointment',
    ],
    [
      { action: 'delete', resource_type: 'medical_file', result: 'success' },
      'You deleted a medical record file',
    ],
    [
      { action: 'create', resource_type: 'reservation', result: 'success' },
      'You booked a consultation',
    ],
    [
      { action: 'delete', resource_type: 'reservation', result: 'success' },
      'You cancelled a consultation',
    ],
    [
      { action: 'download', resource_type: 'x_ray', result: 'success' },
      'An X-ray was opened through a file link',
    ],
    [{ action: 'sign_in', resource_type: 'session', result: 'success' }, 'Signed in'],
    [
      { action: 'sign_in_new_browser', resource_type: 'session', result: 'success' },
      'Signed in from a new browser',
    ],
    [{ action: 'sign_in', resource_type: 'session', result: 'failure' }, 'Failed sign-in attempt'],
    [{ action: 'sign_out', resource_type: 'session', result: 'success' }, 'Signed out'],
    [
      { action: 'password_reset', resource_type: 'account', result: 'success' },
      'Password changed with a reset link',
    ],
    [
      { action: 'reauthenticate', resource_type: 'session', result: 'success' },
      'You confirmed your password',
    ],
    [
      { action: 'deactivate', resource_type: 'account', result: 'success' },
      'Account deleted and deactivated',
    ],
    [
      { action: 'plan_purchase', resource_type: 'membership', result: 'success' },
      'Membership plan purchased',
    ],
  ] as const)('%o → %s', (entry, words) => {
    expect(describeActivity(entry)).toBe(words);
  });

  it('has words for every action on every kind of thing, with no code names in them', () => {
    for (const action of auditActions) {
      for (const resource_type of auditResourceTypes) {
        for (const result of ['success', 'failure'] as const) {
          const words = describeActivity({ action, resource_type, result });
          expect(words).toMatch(/^[A-Z][^_]+$/);
          expect(words).not.toContain('undefined');
        }
      }
    }
  });
});

describe('describeBrowser', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome on Windows',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Linux'],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
      'Edge on macOS',
    ],
    ['curl/8.5.0', 'Unknown browser'],
    [null, 'Unknown browser'],
  ])('%s → %s', (userAgent, words) => {
    expect(describeBrowser(userAgent)).toBe(words);
  });
});
