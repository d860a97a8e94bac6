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
    [
      { action: 'create', resource_type: 'data_export', result: 'success' },
      'You asked for a copy of all your data',
    ],
    [
      { action: 'read', resource_type: 'data_export', result: 'success' },
      'You checked on the copy of all your data',
    ],
    [
      { action: 'download', resource_type: 'data_export', result: 'success' },
      'The copy of all your data was downloaded',
    ],
    [
      { action: 'create', resource_type: 'data_import', result: 'success' },
      'You imported a record into yours',
    ],
    [
      { action: 'read', resource_type: 'data_import', result: 'failure' },
      'Failed attempt to check on an import of a record',
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
      { action: 'push_subscribe', resource_type: 'push_subscription', result: 'success' },
      'You turned on notifications on a device',
    ],
    [
      { action: 'push_unsubscribe', resource_type: 'push_subscription', result: 'failure' },
      'Failed attempt to turn off notifications on a device',
    ],
    [
      { action: 'password_change', resource_type: 'account', result: 'failure' },
      'Failed attempt to change your password',
    ],
  ] as const)('%o → %s', (entry, words) => {
    expect(describeActivity(entry)).toBe(words);
  });

  describe('share links, named by their label when the list knows them', () => {
    const labels = new Map([['link-1', 'For Dr. Patel']]);
    it.each([
      [{ action: 'read', result: 'success' }, 'Your link ‘For Dr. Patel’ was opened'],
      [
        { action: 'read', result: 'failure' },
        'Someone tried to open your link ‘For Dr. Patel’, without success (wrong passcode, revoked or expired)',
      ],
      [
        { action: 'create', result: 'success' },
        'You shared photos or records with your link ‘For Dr. Patel’',
      ],
      [{ action: 'delete', result: 'success' }, 'You revoked your link ‘For Dr. Patel’'],
    ] as const)('%o → %s', (entry, words) => {
      expect(
        describeActivity({ ...entry, resource_type: 'share_link', resource_id: 'link-1' }, labels),
      ).toBe(words);
    });

    it('reads plainly without the label', () => {
      expect(
        describeActivity({
          action: 'read',
          resource_type: 'share_link',
          resource_id: 'link-2',
          result: 'success',
        }),
      ).toBe('A shared link was opened');
    });
  });

  describe('proxy access: what a person the member lets view their record did, by name', () => {
    const sam = { actor_member: { id: 'sam-id', username: 'Sam' } };
    it.each([
      [{ action: 'read', resource_type: 'x_ray', result: 'success' }, 'Sam opened an X-ray'],
      [
        { action: 'read', resource_type: 'oral_photo_list', result: 'success' },
        'Sam viewed your photos and X-rays',
      ],
      [
        { action: 'read', resource_type: 'medical_record', result: 'failure' },
        'Sam tried to open a medical record, without success',
      ],
      [
        { action: 'delegate_accept', resource_type: 'delegation', result: 'success' },
        'Sam accepted your invitation to view your record',
      ],
      [
        { action: 'delegate_leave', resource_type: 'delegation', result: 'success' },
        'Sam stopped viewing your record',
      ],
    ] as const)('%o → %s', (entry, words) => {
      expect(describeActivity({ ...entry, ...sam })).toBe(words);
    });

    it.each([
      ['delegate_invite', 'You invited someone to view your record'],
      ['delegate_revoke', 'You stopped someone from viewing your record'],
    ] as const)('words the member’s own %s', (action, words) => {
      expect(
        describeActivity({
          action,
          resource_type: 'delegation',
          result: 'success',
          actor_member: null,
        }),
      ).toBe(words);
    });
  });

  describe('the practice’s staff, by name, with the date of the item', () => {
    const ada = { actor_staff: { id: 'ada-id', name: 'Dr. Ada Lovelace' } };
    it.each([
      [
        { action: 'download', resource_type: 'x_ray', resource_date: '2026-11-25' },
        'Dr. Ada Lovelace opened your X-ray of 2026-11-25',
      ],
      [
        { action: 'download', resource_type: 'medical_file', resource_date: '2026-04-02' },
        'Dr. Ada Lovelace opened a file of your record of 2026-04-02',
      ],
      [
        { action: 'read', resource_type: 'oral_photo_list', resource_date: null },
        'Dr. Ada Lovelace viewed the photos and X-rays you share',
      ],
      [
        { action: 'read', resource_type: 'medical_record_list', resource_date: null },
        'Dr. Ada Lovelace viewed the records you share',
      ],
      [
        { action: 'read', resource_type: 'consultation_answers', resource_date: '2026-11-20' },
        'Dr. Ada Lovelace read your answers for the consultation of 2026-11-20',
      ],
      [
        { action: 'create', resource_type: 'consultation_summary', resource_date: '2026-11-20' },
        'Dr. Ada Lovelace wrote the summary of your consultation of 2026-11-20',
      ],
      [
        { action: 'change', resource_type: 'consultation_summary', resource_date: '2026-11-20' },
        'Dr. Ada Lovelace updated the summary of your consultation of 2026-11-20',
      ],
    ] as const)('%o → %s', (entry, words) => {
      expect(describeActivity({ ...entry, result: 'success', ...ada })).toBe(words);
    });

    it('says when a staff read failed, and reads plainly without a date', () => {
      expect(
        describeActivity({ action: 'download', resource_type: 'photo', result: 'failure', ...ada }),
      ).toBe('Dr. Ada Lovelace tried to open your photo, without success');
    });

    it.each([
      ['create', 'You chose what to share with your dental practice'],
      ['delete', 'You stopped sharing with your dental practice'],
    ] as const)('words the member’s own %s of what they share', (action, words) => {
      expect(
        describeActivity({ action, resource_type: 'care_team_access', result: 'success' }),
      ).toBe(words);
    });
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
