import { describe, expect, it } from 'vitest';
import { auditActions, auditResourceTypes } from '@dental/contracts';
import { describeActivity } from './activity-wording';

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
      { action: 'social_link', resource_type: 'social_account', result: 'success' },
      'You connected a Google, Apple or Facebook account',
    ],
    [
      { action: 'social_unlink', resource_type: 'social_account', result: 'failure' },
      'Failed attempt to disconnect a Google, Apple or Facebook account',
    ],
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
      'You confirmed your password or a code',
    ],
    [
      { action: 'second_factor_enable', resource_type: 'account', result: 'success' },
      'You turned on two-step verification',
    ],
    [
      { action: 'second_factor_disable', resource_type: 'account', result: 'failure' },
      'Failed attempt to turn off two-step verification',
    ],
    [
      { action: 'recovery_code_use', resource_type: 'account', result: 'success' },
      'A recovery code was used: we e-mailed you about it',
    ],
    [
      { action: 'deactivate', resource_type: 'account', result: 'success' },
      'Account deleted and deactivated',
    ],
    [
      { action: 'plan_purchase', resource_type: 'membership', result: 'success' },
      'Membership plan purchased',
    ],
    [{ action: 'passkey_add', resource_type: 'passkey', result: 'success' }, 'You added a passkey'],
    [
      { action: 'passkey_remove', resource_type: 'passkey', result: 'failure' },
      'Failed attempt to remove a passkey',
    ],
    [
      { action: 'new_device_sign_in', resource_type: 'session', result: 'success' },
      'Signed in from a new device: we e-mailed you about it',
    ],
    [
      { action: 'sign_out_device', resource_type: 'session', result: 'success' },
      'You signed out a device',
    ],
    [
      { action: 'sign_out_other_devices', resource_type: 'session', result: 'success' },
      'You signed out all your other devices',
    ],
    [
      { action: 'password_change', resource_type: 'account', result: 'failure' },
      'Failed attempt to change your password',
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
