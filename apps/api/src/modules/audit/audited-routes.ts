import type { FastifyRequest } from 'fastify';
import {
  accountPaths,
  appointmentPaths,
  calendarRoutePatterns,
  consultationPaths,
  dataExportPaths,
  dentalAiPaths,
  medicalRecordPaths,
  oralPhotoPaths,
  secondFactorPaths,
  sessionPaths,
  shareLinkRoutePatterns,
  shareTokenMaxLength,
  passkeyPaths,
  singleLineText,
  type AuditAction,
  type AuditResourceType,
} from '@dental/contracts';
import { filesPath } from '#api/lib/signed-links';
import type { FileSubject } from './audit.repository';
import type { AuditActor } from './audit.service';

/** Whose chain a row joins and who acted, for routes without a bearer token. */
export interface AuditSubject {
  memberId: string | null;
  actor: AuditActor;
  resourceType?: AuditResourceType;
  resourceId?: string;
}

/** The ways a route without a bearer token names its member. */
export interface AuditLookups {
  memberByEmail(email: string): Promise<string | null>;
  memberByRefreshToken(token: string): Promise<string | null>;
  memberByResetKey(key: string): Promise<string | null>;
  /** The member an `mfa_token` was issued to, used or not. */
  memberByMfaToken(token: string): Promise<string | null>;
  fileByKey(key: string): Promise<FileSubject | undefined>;
  /** The owner and id of the share link a token names, whatever its state. */
  shareLinkByToken(token: string): Promise<ShareLinkSubject | null>;
}

/** Whose share link a token is (docs/decisions/share-links.md). */
export interface ShareLinkSubject {
  memberId: string;
  linkId: string;
}

export interface AuditedRoute {
  action: AuditAction;
  resourceType: AuditResourceType;
  /** The id of what was touched: a path parameter, or the `id` of the answer (creates). A list
   *  read names none. */
  resourceId?: { param: string } | 'answer';
  /** A resource type more precise than `resourceType`, read from the answer. */
  typeFromAnswer?: (answer: Record<string, unknown>) => AuditResourceType;
  /**
   * For routes without a bearer token: the member, or null when none can be named (then no row
   * is written, except for a failed sign-in: docs/decisions/audit-trail.md). Without it, the
   * route is authenticated and the row is the signed-in member's.
   */
  subject?: (
    request: FastifyRequest,
    lookups: AuditLookups,
    answer: Record<string, unknown> | undefined,
    succeeded: boolean,
  ) => Promise<AuditSubject | null>;
}

const photoKind = (answer: Record<string, unknown>): AuditResourceType =>
  answer.photo_type === 'X-ray' ? 'x_ray' : 'photo';

const lookupText = singleLineText();

/** A body field to look the member up by. A value the contract refused (a NUL, which PostgreSQL
 *  cannot even compare) names no one, so it is never looked up. */
const field = (request: FastifyRequest, name: string): string | undefined => {
  const body = request.body;
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && lookupText.safeParse(value).success ? value : undefined;
};

/** A failure by someone not yet signed in is 'anonymous'; a success is the member's own. */
const subjectOf = (memberId: string | null, succeeded: boolean): AuditSubject | null =>
  memberId === null ? null : { memberId, actor: succeeded ? memberId : 'anonymous' };

const byEmail =
  (succeeded: (ok: boolean) => boolean) =>
  async (request: FastifyRequest, lookups: AuditLookups, _answer: unknown, ok: boolean) => {
    const email = field(request, 'email');
    return subjectOf(
      email === undefined ? null : await lookups.memberByEmail(email),
      succeeded(ok),
    );
  };

const byRefreshToken = async (
  request: FastifyRequest,
  lookups: AuditLookups,
  _answer: unknown,
  ok: boolean,
) => {
  const token = field(request, 'refresh');
  return subjectOf(token === undefined ? null : await lookups.memberByRefreshToken(token), ok);
};

/** The member the mfa_token was issued to; a wrong second step is a failed sign-in of theirs. */
const byMfaToken = async (
  request: FastifyRequest,
  lookups: AuditLookups,
  _answer: unknown,
  ok: boolean,
) => {
  const token = field(request, 'mfa_token');
  return subjectOf(token === undefined ? null : await lookups.memberByMfaToken(token), ok);
};

/** For a sign-in that names no e-mail (a social token, a passkey): a success is the member of
 *  the session it started; a failure joins the chain of no member, like an unknown e-mail. */
const bySessionStarted = async (
  lookups: AuditLookups,
  answer: Record<string, unknown> | undefined,
  ok: boolean,
): Promise<AuditSubject | null> => {
  const refresh = ok && typeof answer?.refresh === 'string' ? answer.refresh : undefined;
  const memberId = refresh === undefined ? null : await lookups.memberByRefreshToken(refresh);
  return memberId === null ? { memberId: null, actor: 'anonymous' } : subjectOf(memberId, ok);
};

/** The actor of a row written by a share link's recipient. */
export const shareLinkActor = (linkId: string) => `share_link:${linkId}`;

const id = { param: 'id' } as const;
const photo = `${oralPhotoPaths.list}:id/`;
const record = `${medicalRecordPaths.list}:id/`;
const appointment = `${appointmentPaths.list}:id/`;
const reservation = `${consultationPaths.reservations}:id/`;

/**
 * Every audited route by `METHOD url` as registered: each read, create, change and delete of
 * health data, each file served by signed link, and the account events (docs/decisions/
 * audit-trail.md). The app refuses to start when an entry names no route, so a renamed route
 * cannot silently drop out of the trail.
 */
export const auditedRoutes: Readonly<Record<string, AuditedRoute>> = {
  [`GET ${oralPhotoPaths.list}`]: { action: 'read', resourceType: 'oral_photo_list' },
  [`GET ${photo}`]: {
    action: 'read',
    resourceType: 'oral_photo',
    resourceId: id,
    typeFromAnswer: photoKind,
  },
  [`POST ${oralPhotoPaths.list}`]: {
    action: 'create',
    resourceType: 'oral_photo',
    resourceId: 'answer',
    typeFromAnswer: photoKind,
  },
  [`PUT ${photo}`]: {
    action: 'change',
    resourceType: 'oral_photo',
    resourceId: id,
    typeFromAnswer: photoKind,
  },
  [`DELETE ${photo}`]: { action: 'delete', resourceType: 'oral_photo', resourceId: id },

  [`GET ${medicalRecordPaths.list}`]: { action: 'read', resourceType: 'medical_record_list' },
  [`GET ${record}`]: { action: 'read', resourceType: 'medical_record', resourceId: id },
  [`POST ${medicalRecordPaths.list}`]: {
    action: 'create',
    resourceType: 'medical_record',
    resourceId: 'answer',
  },
  [`PUT ${record}`]: { action: 'change', resourceType: 'medical_record', resourceId: id },
  [`DELETE ${record}`]: { action: 'delete', resourceType: 'medical_record', resourceId: id },
  [`POST ${record}medical-file/`]: {
    action: 'create',
    resourceType: 'medical_file',
    resourceId: 'answer',
  },
  [`DELETE ${record}medical-file/:fileId/`]: {
    action: 'delete',
    resourceType: 'medical_file',
    resourceId: { param: 'fileId' },
  },

  [`GET ${filesPath}*`]: {
    action: 'download',
    resourceType: 'oral_photo',
    subject: async (request, lookups) => {
      const key = (request.params as Record<string, unknown>)['*'];
      const file = typeof key === 'string' ? await lookups.fileByKey(key) : undefined;
      return file === undefined ? null : { ...file, actor: 'signed link' };
    },
  },

  // Making and revoking a link decides who sees health data; each opening joins the owner's
  // chain with the link as its actor, a failed one (wrong passcode, revoked, expired) too.
  [`POST ${shareLinkRoutePatterns.list}`]: {
    action: 'create',
    resourceType: 'share_link',
    resourceId: 'answer',
  },
  [`DELETE ${shareLinkRoutePatterns.one}`]: {
    action: 'delete',
    resourceType: 'share_link',
    resourceId: id,
  },
  [`GET ${shareLinkRoutePatterns.shared}`]: {
    action: 'read',
    resourceType: 'share_link',
    subject: async (request, lookups) => {
      const token = (request.params as Record<string, unknown>).token;
      const link =
        typeof token === 'string' && token.length <= shareTokenMaxLength
          ? await lookups.shareLinkByToken(token)
          : null;
      return link === null
        ? null
        : {
            memberId: link.memberId,
            actor: shareLinkActor(link.linkId),
            resourceType: 'share_link',
            resourceId: link.linkId,
          };
    },
  },

  [`GET ${appointmentPaths.list}`]: { action: 'read', resourceType: 'appointment_list' },
  [`GET ${appointment}`]: { action: 'read', resourceType: 'appointment', resourceId: id },
  [`POST ${appointmentPaths.list}`]: {
    action: 'create',
    resourceType: 'appointment',
    resourceId: 'answer',
  },
  [`PUT ${appointment}`]: { action: 'change', resourceType: 'appointment', resourceId: id },
  [`DELETE ${appointment}`]: { action: 'delete', resourceType: 'appointment', resourceId: id },
  // The member's own .ics carries the note; the feed carries no health detail and is not audited.
  [`GET ${calendarRoutePatterns.appointment}`]: {
    action: 'read',
    resourceType: 'appointment',
    resourceId: id,
  },

  [`GET ${dentalAiPaths.results}`]: { action: 'read', resourceType: 'dental_ai_result_list' },
  [`GET ${dentalAiPaths.root}:id/`]: {
    action: 'read',
    resourceType: 'dental_ai_result',
    resourceId: id,
  },
  [`DELETE ${dentalAiPaths.root}:id/`]: {
    action: 'delete',
    resourceType: 'dental_ai_result',
    resourceId: id,
  },
  [`POST ${dentalAiPaths.root}`]: {
    action: 'create',
    resourceType: 'dental_ai_result',
    resourceId: 'answer',
  },

  // The archive holds the whole record: asking for it and reading one export's state (which hands
  // out its link) are recorded; its download is the files route's row, with the export as its
  // resource. The Profile's list (states only, read on every visit) is not, like the share links'.
  [`POST ${dataExportPaths.root}`]: {
    action: 'create',
    resourceType: 'data_export',
    resourceId: 'answer',
  },
  [`GET ${dataExportPaths.root}:id/`]: {
    action: 'read',
    resourceType: 'data_export',
    resourceId: id,
  },

  [`GET ${consultationPaths.reservations}`]: { action: 'read', resourceType: 'reservation_list' },
  [`POST ${consultationPaths.reservations}`]: {
    action: 'create',
    resourceType: 'reservation',
    resourceId: 'answer',
  },
  [`GET ${reservation}`]: { action: 'read', resourceType: 'reservation', resourceId: id },
  [`DELETE ${reservation}`]: { action: 'delete', resourceType: 'reservation', resourceId: id },
  [`GET ${calendarRoutePatterns.reservation}`]: {
    action: 'read',
    resourceType: 'reservation',
    resourceId: id,
  },
  ['GET /api/form/answer/:id/']: {
    action: 'read',
    resourceType: 'consultation_answers',
    resourceId: id,
  },
  ['GET /api/complaint/:id/']: {
    action: 'read',
    resourceType: 'consultation_summary',
    resourceId: id,
  },

  [`POST ${accountPaths.register}`]: {
    action: 'sign_up',
    resourceType: 'account',
    subject: (_request, _lookups, answer) => {
      const memberId = typeof answer?.id === 'string' ? answer.id : null;
      return Promise.resolve(subjectOf(memberId, true));
    },
  },
  [`POST ${accountPaths.login}`]: {
    action: 'sign_in',
    resourceType: 'session',
    subject: async (request, lookups, answer, ok) => {
      // A right password that asks for the second step is not a sign-in yet: the second step
      // writes the row (docs/decisions/second-factor.md).
      if (answer?.mfa_required === true) return null;
      const loginType = field(request, 'login_type');
      if (loginType !== undefined && loginType !== 'native') {
        return bySessionStarted(lookups, answer, ok);
      }
      const found = await byEmail((succeeded) => succeeded)(request, lookups, answer, ok);
      // Failed attempts on an unknown e-mail join the chain of no member.
      return found ?? (ok ? null : { memberId: null, actor: 'anonymous' });
    },
  },
  [`POST ${accountPaths.refresh}`]: {
    action: 'refresh',
    resourceType: 'session',
    subject: byRefreshToken,
  },
  [`POST ${accountPaths.logout}`]: {
    action: 'sign_out',
    resourceType: 'session',
    subject: byRefreshToken,
  },
  [`POST ${accountPaths.forgetPassword}`]: {
    action: 'password_reset_request',
    resourceType: 'account',
    // Anyone may ask for a reset link to any address: never the member's own act.
    subject: byEmail(() => false),
  },
  [`POST ${accountPaths.updatePassword}`]: {
    action: 'password_reset',
    resourceType: 'account',
    subject: async (request, lookups, _answer, ok) => {
      const key = field(request, 'key');
      return subjectOf(key === undefined ? null : await lookups.memberByResetKey(key), ok);
    },
  },
  [`POST ${accountPaths.reauthenticate}`]: { action: 'reauthenticate', resourceType: 'session' },
  [`DELETE ${accountPaths.account}`]: { action: 'deactivate', resourceType: 'account' },
  [`POST ${secondFactorPaths.loginWithCode}`]: {
    action: 'sign_in',
    resourceType: 'session',
    subject: byMfaToken,
  },
  [`POST ${passkeyPaths.secondFactor}`]: {
    action: 'sign_in',
    resourceType: 'session',
    subject: byMfaToken,
  },
  [`POST ${secondFactorPaths.confirmTotp}`]: {
    action: 'second_factor_enable',
    resourceType: 'account',
  },
  [`DELETE ${secondFactorPaths.totp}`]: {
    action: 'second_factor_disable',
    resourceType: 'account',
  },
  [`DELETE ${sessionPaths.session(':id')}`]: {
    action: 'sign_out_device',
    resourceType: 'session',
    resourceId: id,
  },
  [`DELETE ${sessionPaths.sessions}`]: {
    action: 'sign_out_other_devices',
    resourceType: 'session',
  },
  [`POST ${sessionPaths.changePassword}`]: { action: 'password_change', resourceType: 'account' },
  [`POST ${passkeyPaths.list}`]: {
    action: 'passkey_add',
    resourceType: 'passkey',
    resourceId: 'answer',
  },
  [`DELETE ${passkeyPaths.list}:id/`]: {
    action: 'passkey_remove',
    resourceType: 'passkey',
    resourceId: id,
  },
  [`POST ${passkeyPaths.signIn}`]: {
    action: 'sign_in',
    resourceType: 'session',
    subject: (_request, lookups, answer, ok) => bySessionStarted(lookups, answer, ok),
  },
  [`POST ${accountPaths.socialMediaAccount}`]: {
    action: 'social_link',
    resourceType: 'social_account',
  },
  [`DELETE ${accountPaths.socialMediaAccount}:provider/:id/`]: {
    action: 'social_unlink',
    resourceType: 'social_account',
    resourceId: id,
  },
};
