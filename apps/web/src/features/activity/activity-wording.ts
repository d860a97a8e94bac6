import type { ActivityEntry, AuditResourceType } from '@dental/contracts';

/** Each kind of thing in the words a patient uses, with its article. */
const things: Record<AuditResourceType, string> = {
  account: 'your account',
  session: 'a session',
  photo: 'a photo',
  x_ray: 'an X-ray',
  oral_photo: 'a photo or X-ray',
  oral_photo_list: 'your photos and X-rays',
  oral_photo_set: 'a set of photos of your teeth',
  medical_record: 'a medical record',
  medical_record_list: 'your medical records',
  medical_file: 'a medical record file',
  appointment: 'an appointment',
  appointment_list: 'your appointments',
  dental_ai_result: 'a Dental AI result',
  dental_ai_result_list: 'your Dental AI results',
  reservation: 'a consultation booking',
  reservation_list: 'your consultation bookings',
  consultation_answers: 'an answer of a consultation form',
  consultation_summary: 'a doctor’s consultation summary',
  consultation_image: 'an image of a doctor’s summary',
  membership: 'a membership',
  passkey: 'a passkey',
  social_account: 'a Google, Apple or Facebook account',
  push_subscription: 'a device’s notifications',
  delegation: 'an invitation to view your record',
  share_link: 'a shared link',
  data_export: 'a copy of all your data',
  data_import: 'an import of a record',
  staff_account: 'a staff account of the practice',
  care_team_access: 'what you share with your dental practice',
  message_thread: 'a conversation with your dental practice',
  message_thread_list: 'your conversations with your dental practice',
  message: 'a message to your dental practice',
  photo_review: 'a request for a dentist’s review',
  photo_review_list: 'your dentist’s reviews',
  training_consent: 'your consent to improve the models with reviewed images',
  check_up_recall: 'your check-up reminder',
  home_up_next: 'what is next on Home (appointments, consultations, summaries, uploads)',
  report: 'a report of your history',
  report_list: 'your reports',
};

/** The items a staff member opens, named by their date ('your X-ray of 2026-11-25'). */
const datedThings: Partial<Record<AuditResourceType, string>> = {
  x_ray: 'your X-ray',
  photo: 'your photo',
  oral_photo: 'your photo or X-ray',
  medical_record: 'your record',
  medical_file: 'a file of your record',
  consultation_answers: 'your answers for the consultation',
  consultation_summary: 'the summary of your consultation',
  consultation_image: 'an image of the summary of your consultation',
  dental_ai_result: 'your Dental AI result',
};

const isList = (type: AuditResourceType) => type.endsWith('_list');

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The verbs of the health-data actions: what you did, and what you tried to do. */
const verbs = {
  read: ['opened', 'open'],
  create: ['added', 'add'],
  change: ['changed', 'change'],
  delete: ['deleted', 'delete'],
} as const;

/**
 * A share link's row (docs/product/sharing.md): a read is always its recipient opening it, since
 * the member reads their own items through the lists. The label names the link when known.
 */
function describeShareLink(
  entry: Pick<ActivityEntry, 'action' | 'result'>,
  label: string | undefined,
): string {
  const link = label === undefined ? 'a shared link' : `your link ‘${label}’`;
  const failed = entry.result === 'failure';
  switch (entry.action) {
    case 'read':
      return failed
        ? `Someone tried to open ${link}, without success (wrong passcode, revoked or expired)`
        : `${capitalized(link)} was opened`;
    case 'create':
      return failed
        ? 'Failed attempt to share photos or records by link'
        : `You shared photos or records with ${link}`;
    case 'delete':
      return failed ? `Failed attempt to revoke ${link}` : `You revoked ${link}`;
    default:
      return `${capitalized(link)} was used`;
  }
}

/** 'Download my data' (docs/decisions/data-export.md): asked for, checked on, downloaded. */
function describeDataImport(entry: Pick<ActivityEntry, 'action' | 'result'>): string {
  const failed = entry.result === 'failure';
  if (entry.action === 'create') {
    return failed ? 'Failed attempt to import a record' : 'You imported a record into yours';
  }
  return failed
    ? 'Failed attempt to check on an import of a record'
    : 'You checked on an import of a record';
}

function describeDataExport(entry: Pick<ActivityEntry, 'action' | 'result'>): string {
  const failed = entry.result === 'failure';
  switch (entry.action) {
    case 'create':
      return failed
        ? 'Failed attempt to ask for a copy of all your data'
        : 'You asked for a copy of all your data';
    case 'download':
      return failed
        ? 'Failed attempt to download the copy of all your data'
        : 'The copy of all your data was downloaded';
    default:
      return failed
        ? 'Failed attempt to check on the copy of all your data'
        : 'You checked on the copy of all your data';
  }
}

/** What a person the member lets view their record did there (docs/product/proxy-access.md):
 *  'Sam viewed your photos and X-rays'. */
function describeDelegateAct(
  entry: Pick<ActivityEntry, 'action' | 'resource_type' | 'result'>,
  name: string,
): string {
  const thing = things[entry.resource_type];
  const failed = entry.result === 'failure';
  switch (entry.action) {
    case 'delegate_accept':
      return `${name} accepted your invitation to view your record`;
    case 'delegate_leave':
      return `${name} stopped viewing your record`;
    case 'read': {
      const [done, attempted] = isList(entry.resource_type)
        ? ['viewed', 'view']
        : ['opened', 'open'];
      return failed
        ? `${name} tried to ${attempted} ${thing}, without success`
        : `${name} ${done} ${thing}`;
    }
    default:
      return `${name} looked at ${thing}`;
  }
}

/** What a staff member of the practice did with what the member shares or booked
 *  (docs/product/care-team-sharing.md): 'Dr. Ada Lovelace opened your X-ray of 2026-11-25'. */
function describeStaffAct(
  entry: Pick<ActivityEntry, 'action' | 'resource_type' | 'result'> &
    Partial<Pick<ActivityEntry, 'resource_date'>>,
  name: string,
): string {
  const dated = datedThings[entry.resource_type];
  const date = entry.resource_date ?? null;
  const thing =
    dated === undefined
      ? things[entry.resource_type]
      : date === null
        ? dated
        : `${dated} of ${date}`;
  if (entry.result === 'failure') return `${name} tried to open ${thing}, without success`;
  switch (entry.action) {
    case 'read':
      if (entry.resource_type === 'oral_photo_list')
        return `${name} viewed the photos and X-rays you share`;
      if (entry.resource_type === 'medical_record_list')
        return `${name} viewed the records you share`;
      if (entry.resource_type === 'consultation_answers') return `${name} read ${thing}`;
      if (entry.resource_type === 'message_thread')
        return `${name} read your conversation with the practice`;
      if (entry.resource_type === 'message_thread_list')
        return `${name} saw the subject of your conversation in the practice’s list`;
      if (entry.resource_type === 'photo_review')
        return `${name} opened your request for a dentist’s review`;
      return `${name} opened ${thing}`;
    case 'download':
      return `${name} opened ${thing}`;
    case 'create':
      if (entry.resource_type === 'message') return `${name} replied to your message`;
      return `${name} wrote ${thing}`;
    case 'change':
      return entry.resource_type === 'photo_review'
        ? `${name} answered your request for a dentist’s review`
        : `${name} updated ${thing}`;
    default:
      return `${name} looked at ${thing}`;
  }
}

/**
 * One line of Account activity in plain words ('You opened an X-ray', 'Signed in from a new
 * browser', 'Failed sign-in attempt'; docs/decisions/audit-trail.md). `shareLinkLabels` names
 * the member's share links by id ('Your link ‘For Dr. Patel’ was opened').
 */
export function describeActivity(
  entry: Pick<ActivityEntry, 'action' | 'resource_type' | 'result'> &
    Partial<Pick<ActivityEntry, 'resource_id' | 'actor_member' | 'actor_staff' | 'resource_date'>>,
  shareLinkLabels: ReadonlyMap<string, string> = new Map(),
) {
  const staff = entry.actor_staff?.name;
  if (staff !== undefined) return describeStaffAct(entry, staff);
  if (entry.resource_type === 'share_link') {
    const id = entry.resource_id ?? null;
    return describeShareLink(entry, id === null ? undefined : shareLinkLabels.get(id));
  }
  if (entry.resource_type === 'data_export') return describeDataExport(entry);
  if (entry.resource_type === 'data_import') return describeDataImport(entry);
  const delegate = entry.actor_member?.username;
  if (delegate !== undefined) return describeDelegateAct(entry, delegate);
  const thing = things[entry.resource_type];
  const failed = entry.result === 'failure';
  if (entry.resource_type === 'care_team_access') {
    const verb = entry.action === 'delete' ? 'stop sharing' : 'share';
    if (failed) return `Failed attempt to ${verb} with your dental practice`;
    return entry.action === 'delete'
      ? 'You stopped sharing with your dental practice'
      : 'You chose what to share with your dental practice';
  }
  switch (entry.action) {
    case 'delegate_invite':
      return failed
        ? 'Failed attempt to invite someone to view your record'
        : 'You invited someone to view your record';
    case 'delegate_accept':
      return 'Your invitation to view your record was accepted';
    case 'delegate_revoke':
      return 'You stopped someone from viewing your record';
    case 'delegate_leave':
      return 'Someone stopped viewing your record';
    case 'sign_up':
      return 'You created your account';
    case 'email_confirm':
      return 'You confirmed your e-mail address';
    case 'email_change_request':
      return failed
        ? 'Failed attempt to change your e-mail address'
        : 'You asked to change your e-mail address';
    case 'sign_in':
      return failed ? 'Failed sign-in attempt' : 'Signed in';
    case 'sign_in_new_browser':
      return 'Signed in from a new browser';
    case 'refresh':
      return failed ? 'Failed attempt to continue a session' : 'Session continued';
    case 'session_handoff':
      return failed
        ? 'Failed attempt to continue a session in a new tab'
        : 'Session continued in a new tab';
    case 'sign_out':
      return 'Signed out';
    case 'password_reset_request':
      return 'A password reset link was requested';
    case 'password_reset':
      return failed
        ? 'Failed attempt to reset your password'
        : 'Password changed with a reset link';
    case 'reauthenticate':
      return failed
        ? 'Wrong password or code when asked to confirm it'
        : 'You confirmed your password or a code';
    case 'deactivate':
      return 'Account deleted and deactivated';
    case 'plan_purchase':
      return 'Membership plan purchased';
    case 'passkey_add':
      return failed ? 'Failed attempt to add a passkey' : 'You added a passkey';
    case 'passkey_remove':
      return failed ? 'Failed attempt to remove a passkey' : 'You removed a passkey';
    case 'new_device_sign_in':
      return 'Signed in from a new device: we e-mailed you about it';
    case 'sign_out_device':
      return failed ? 'Failed attempt to sign out a device' : 'You signed out a device';
    case 'sign_out_other_devices':
      return 'You signed out all your other devices';
    case 'push_subscribe':
      return failed
        ? 'Failed attempt to turn on notifications on a device'
        : 'You turned on notifications on a device';
    case 'push_unsubscribe':
      return failed
        ? 'Failed attempt to turn off notifications on a device'
        : 'You turned off notifications on a device';
    case 'password_change':
      return failed ? 'Failed attempt to change your password' : 'You changed your password';
    case 'second_factor_enable':
      return failed
        ? 'Failed attempt to turn on two-step verification'
        : 'You turned on two-step verification';
    case 'second_factor_disable':
      return failed
        ? 'Failed attempt to turn off two-step verification'
        : 'You turned off two-step verification';
    case 'recovery_code_use':
      return 'A recovery code was used: we e-mailed you about it';
    case 'social_link':
      return failed
        ? 'Failed attempt to connect a Google, Apple or Facebook account'
        : 'You connected a Google, Apple or Facebook account';
    case 'social_unlink':
      return failed
        ? 'Failed attempt to disconnect a Google, Apple or Facebook account'
        : 'You disconnected a Google, Apple or Facebook account';
    case 'download':
      return failed
        ? `Failed attempt to open the file of ${thing} through a link`
        : `${capitalized(thing)} was opened through a file link`;
    default: {
      if (entry.resource_type === 'reservation' && entry.action !== 'read') {
        const booked = entry.action === 'create' ? 'book' : 'cancel';
        return failed
          ? `Failed attempt to ${booked} a consultation`
          : `You ${booked === 'book' ? 'booked' : 'cancelled'} a consultation`;
      }
      const [done, attempted] =
        entry.action === 'read' && isList(entry.resource_type)
          ? ['viewed', 'view']
          : verbs[entry.action];
      return failed ? `Failed attempt to ${attempted} ${thing}` : `You ${done} ${thing}`;
    }
  }
}
