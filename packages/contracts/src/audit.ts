import { z } from 'zod';

/** The member's own audit trail (docs/decisions/audit-trail.md). */
export const auditPaths = {
  activity: '/api/account/activity/',
} as const;

/** What happened; the web turns each into plain words. */
export const auditActions = [
  'read',
  'create',
  'change',
  'delete',
  'download',
  'sign_up',
  'sign_in',
  'sign_in_new_browser',
  'refresh',
  'session_handoff',
  'sign_out',
  'password_reset_request',
  'password_reset',
  'reauthenticate',
  'deactivate',
  'plan_purchase',
  'passkey_add',
  'passkey_remove',
  'new_device_sign_in',
  'sign_out_device',
  'sign_out_other_devices',
  'password_change',
  'second_factor_enable',
  'second_factor_disable',
  'recovery_code_use',
  'social_link',
  'social_unlink',
  'delegate_invite',
  'delegate_accept',
  'delegate_revoke',
  'delegate_leave',
  'email_confirm',
  'email_change_request',
  /** Notifications on a device turned on or off (docs/decisions/web-push.md). */
  'push_subscribe',
  'push_unsubscribe',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** What it happened to. A list read names the kind and no id. */
export const auditResourceTypes = [
  'account',
  'session',
  'photo',
  'x_ray',
  'oral_photo',
  'oral_photo_list',
  /** The five photos of a guided capture, read together (docs/decisions/guided-capture.md). */
  'oral_photo_set',
  'medical_record',
  'medical_record_list',
  'medical_file',
  'appointment',
  'appointment_list',
  'dental_ai_result',
  'dental_ai_result_list',
  'reservation',
  'reservation_list',
  'consultation_answers',
  'consultation_summary',
  'consultation_image',
  'membership',
  'passkey',
  'social_account',
  /** A share link for a dentist; opened by its recipient, the row's actor is the link. */
  'share_link',
  'delegation',
  /** 'Download my data': its request, progress reads and the archive's download. */
  'data_export',
  /** 'Import a record': its request and progress reads (docs/decisions/data-import.md). */
  'data_import',
  /** A staff account of the clinic console, in the acting admin's own chain. */
  'staff_account',
  /** What the member shares with the dental practice (docs/decisions/care-team-access.md). */
  'care_team_access',
  /** A conversation with the practice, a message of one, and the member's list of them
   *  (docs/decisions/care-messages.md); a staff list read names each thread shown. */
  'message_thread',
  'message_thread_list',
  'message',
  /** A dentist's review of photos or a Dental AI result (docs/decisions/photo-reviews.md). */
  'photo_review',
  'photo_review_list',
  /** The member's consent that reviewed images may improve the models. */
  'training_consent',
  /** The member's wish to be reminded of a check-up (docs/decisions/check-up-recall.md). */
  'check_up_recall',
  /** Home's strip of what is next: the soonest appointment and consultation, a new doctor's
   *  summary and recent uploads, read in one call (docs/decisions/home-up-next.md). */
  'home_up_next',
  /** A PDF report of the member's history, its list, and the PDF's download
   *  (docs/decisions/reports.md). */
  'report',
  'report_list',
  /** A device's notifications (docs/decisions/web-push.md). */
  'push_subscription',
] as const;
export type AuditResourceType = (typeof auditResourceTypes)[number];

export const auditResults = ['success', 'failure'] as const;
export type AuditResult = (typeof auditResults)[number];

/** Most rows one page of activity holds. */
export const activityMaxLimit = 100;
export const activityDefaultLimit = 20;

/** The largest position in the audit trail: its `seq` column is a PostgreSQL integer. */
const lastActivityPosition = 2 ** 31 - 1;
const notACursorMessage = 'This is not a cursor from a previous page.';

export const activityQuery = z.object({
  cursor: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, notACursorMessage)
    .refine((cursor) => Number(cursor) <= lastActivityPosition, notACursorMessage)
    .optional(),
  limit: z.coerce
    .number('limit must be a whole number.')
    .int('limit must be a whole number.')
    .min(1, 'limit must be at least 1.')
    .max(activityMaxLimit, `limit must be at most ${activityMaxLimit}.`)
    .default(activityDefaultLimit),
});
export type ActivityQuery = z.infer<typeof activityQuery>;

export const activityEntry = z.object({
  id: z.uuid(),
  at: z.iso.datetime({ offset: true }),
  action: z.enum(auditActions),
  resource_type: z.enum(auditResourceTypes),
  resource_id: z.string().nullable(),
  result: z.enum(auditResults),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** Another member who acted on this member's record: a delegate (docs/decisions/
   *  proxy-access.md). Null when the member acted themself or the actor is not a member. */
  actor_member: z.object({ id: z.uuid(), username: z.string() }).nullable(),
  /** A staff member of the practice who read what the member shares (docs/decisions/
   *  care-team-access.md); null otherwise. */
  actor_staff: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  /** For a staff member's row: the date of the item they opened (a photo's shoot date, a
   *  record's date, a consultation's day), so the words can name it; null otherwise. */
  resource_date: z.iso.date().nullable(),
});
export type ActivityEntry = z.infer<typeof activityEntry>;

/** Newest first; `next` is the cursor of the following page, null on the last. */
export const activityPage = z.object({
  results: z.array(activityEntry),
  next: z.string().nullable(),
});
export type ActivityPage = z.infer<typeof activityPage>;
