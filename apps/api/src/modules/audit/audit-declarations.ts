import type { FastifyRequest } from 'fastify';
import { singleLineText, type AuditAction, type AuditResourceType } from '@dental/contracts';
import type { FileSubject } from './audit.repository';
import type { AuditActor } from './audit.service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route records on the audit trail; an authenticated route must say, even when
     *  it records nothing (docs/decisions/audit-trail.md). */
    audit?: RouteAudit;
  }
}

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

/** Names the member of a request without a bearer token from the request, the answer of a
 *  success and whether it succeeded. */
export type AuditSubjectLookup = (
  request: FastifyRequest,
  lookups: AuditLookups,
  answer: Record<string, unknown> | undefined,
  succeeded: boolean,
) => Promise<AuditSubject | null>;

/** A route that writes one row per request: each read, create, change and delete of health
 *  data, each file served by signed link, and the account events. */
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
   * route must be authenticated and the row is the signed-in member's.
   */
  subject?: AuditSubjectLookup;
  /**
   * Where a success's row is written instead, when the service writes it in the transaction of
   * the change it records (one commit, and no change without its row); the plugin then writes
   * only the failures' rows.
   */
  successRecordedBy?: string;
}

/** A route that writes no row, and why: it touches no health data, or another part writes the
 *  row (a service that records after its commit). */
export interface NotAudited {
  none: string;
}

export type RouteAudit = AuditedRoute | NotAudited;

const lookupText = singleLineText();

/** A body field to look the member up by. A value the contract refused (a NUL, which PostgreSQL
 *  cannot even compare) names no one, so it is never looked up. */
export const bodyField = (request: FastifyRequest, name: string): string | undefined => {
  const body = request.body;
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && lookupText.safeParse(value).success ? value : undefined;
};

/** A failure by someone not yet signed in is 'anonymous'; a success is the member's own. */
export const subjectOf = (memberId: string | null, succeeded: boolean): AuditSubject | null =>
  memberId === null ? null : { memberId, actor: succeeded ? memberId : 'anonymous' };

/** The member whose e-mail the body names; `succeeded` says whether a success is their own act. */
export const byEmail =
  (succeeded: (ok: boolean) => boolean): AuditSubjectLookup =>
  async (request, lookups, _answer, ok) => {
    const email = bodyField(request, 'email');
    return subjectOf(
      email === undefined ? null : await lookups.memberByEmail(email),
      succeeded(ok),
    );
  };

/** The member of the refresh token in the body. */
export const byRefreshToken: AuditSubjectLookup = async (request, lookups, _answer, ok) => {
  const token = bodyField(request, 'refresh');
  return subjectOf(token === undefined ? null : await lookups.memberByRefreshToken(token), ok);
};

/** The member the mfa_token was issued to; a wrong second step is a failed sign-in of theirs. */
export const byMfaToken: AuditSubjectLookup = async (request, lookups, _answer, ok) => {
  const token = bodyField(request, 'mfa_token');
  return subjectOf(token === undefined ? null : await lookups.memberByMfaToken(token), ok);
};

/** For a sign-in that names no e-mail (a social token, a passkey): a success is the member of
 *  the session it started; a failure joins the chain of no member, like an unknown e-mail. */
export const bySessionStarted: AuditSubjectLookup = async (_request, lookups, answer, ok) => {
  const refresh = ok && typeof answer?.refresh === 'string' ? answer.refresh : undefined;
  const memberId = refresh === undefined ? null : await lookups.memberByRefreshToken(refresh);
  return memberId === null ? { memberId: null, actor: 'anonymous' } : subjectOf(memberId, ok);
};

/** The actor of a row written by a share link's recipient. */
export const shareLinkActor = (linkId: string) => `share_link:${linkId}`;

/** File links scoped to someone (a share link, a staff member): checked, with the scope and the
 *  blob key they name. */
export interface ScopedFileLinks {
  verify(
    path: string,
    query: Readonly<Record<string, unknown>>,
  ): { scopeId: string; key: string | undefined };
}

/** Each file opened through a scoped link joins its owner's chain with `actorOf` the scope as
 *  actor; a link whose signature fails, or whose file no row refers to, names no one. */
export function scopedFileOpener(
  links: ScopedFileLinks,
  actorOf: (scopeId: string) => AuditActor,
): AuditSubjectLookup {
  return async (request, lookups) => {
    let scoped;
    try {
      scoped = links.verify(
        (request.params as Record<string, string>)['*'] ?? '',
        request.query as Record<string, unknown>,
      );
    } catch {
      return null;
    }
    const file = scoped.key === undefined ? undefined : await lookups.fileByKey(scoped.key);
    return file === undefined ? null : { ...file, actor: actorOf(scoped.scopeId) };
  };
}
