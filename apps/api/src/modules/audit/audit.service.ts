import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type {
  ActivityPage,
  ActivityQuery,
  AuditAction,
  AuditResourceType,
  AuditResult,
} from '@dental/contracts';
import type { Clock } from '#api/clock';
import type { Database } from '#api/db/client';
import type { AuditEventRow } from '#api/db/schema';
import { auditHash } from './audit-hash';
import type { AuditRepository } from './audit.repository';

/** Who did it: the member's id, 'share_link:<link id>' (a share link's recipient), or 'signed
 *  link', 'payment provider' or 'anonymous'. */
export type AuditActor = string;

export interface AuditEvent {
  /** The chain the row joins; null only for failed sign-ins with an unknown e-mail. */
  memberId: string | null;
  actor: AuditActor;
  action: AuditAction;
  resourceType: AuditResourceType;
  resourceId: string | null;
  result: AuditResult;
}

/** Where a request came from; set for each request by the audit plugin. */
export interface AuditContext {
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** The context of the request being handled, so services deep in a call need not pass it on. */
export const auditContext = new AsyncLocalStorage<AuditContext>();

/** Anything that can take an audit row (what other services depend on). */
export interface AuditRecorder {
  /** Without a context, the request being handled supplies it (auditContext). */
  record(event: AuditEvent, context?: AuditContext): Promise<void>;
}

/** A user agent is kept whole up to this length; longer ones are cut (no row grows unbounded). */
const userAgentMaxLength = 512;

export interface BrokenRow {
  memberId: string | null;
  seq: number;
  id: string;
  reason: 'hash' | 'link' | 'gap';
}

export interface VerifyReport {
  chains: number;
  rows: number;
  /** The first broken row of each broken chain. */
  broken: BrokenRow[];
}

export class AuditService implements AuditRecorder {
  constructor(
    private readonly repository: AuditRepository,
    private readonly clock: Clock,
  ) {}

  async record(event: AuditEvent, context = auditContext.getStore()): Promise<void> {
    await this.repository.append(await this.rowOf(event, context));
  }

  /** The same row, written by the caller's transaction `tx`: it commits with the change it
   *  records, in the same commit, or not at all. */
  async recordWithin(
    tx: Database,
    event: AuditEvent,
    context = auditContext.getStore(),
  ): Promise<void> {
    await this.repository.appendWithin(tx, await this.rowOf(event, context));
  }

  private async rowOf(event: AuditEvent, context: AuditContext | undefined) {
    const userAgent = context?.userAgent?.slice(0, userAgentMaxLength) ?? null;
    let { action } = event;
    if (
      action === 'sign_in' &&
      event.result === 'success' &&
      event.memberId !== null &&
      !(await this.repository.signedInBefore(event.memberId, userAgent))
    ) {
      action = 'sign_in_new_browser';
    }
    return {
      ...event,
      action,
      id: randomUUID(),
      at: this.clock.now(),
      ip: context?.ip ?? null,
      userAgent,
      requestId: context?.requestId ?? null,
    };
  }

  /** The member's own rows, newest first; the cursor is the position to continue below. */
  async activity(memberId: string, query: ActivityQuery): Promise<ActivityPage> {
    const before = query.cursor === undefined ? undefined : Number(query.cursor);
    const rows = await this.repository.page(memberId, before, query.limit + 1);
    const results = rows.slice(0, query.limit);
    const last = results.at(-1);
    const byStaff = (row: (typeof results)[number]) =>
      row.actorName !== null && row.actorRole !== null && row.actorRole !== 'member';
    // Staff rows name the item by its date ('opened your X-ray of 2026-11-25').
    const dates = await this.repository.itemDates(
      results.flatMap((row) => (byStaff(row) && row.resourceId !== null ? [row.resourceId] : [])),
    );
    return {
      results: results.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        action: row.action as AuditAction,
        resource_type: row.resourceType as AuditResourceType,
        resource_id: row.resourceId,
        result: row.result as AuditResult,
        ip: row.ip,
        user_agent: row.userAgent,
        actor_member:
          row.actorName === null || byStaff(row)
            ? null
            : { id: row.actor, username: row.actorName },
        actor_staff:
          row.actorName !== null && byStaff(row) ? { id: row.actor, name: row.actorName } : null,
        resource_date:
          byStaff(row) && row.resourceId !== null ? (dates.get(row.resourceId) ?? null) : null,
      })),
      next: rows.length > query.limit && last !== undefined ? String(last.seq) : null,
    };
  }

  /** Recomputes every chain, or only `memberId`'s; names the first broken row of each
   *  (`npm run audit -- verify`). */
  async verify(memberId?: string): Promise<VerifyReport> {
    const report: VerifyReport = { chains: 0, rows: 0, broken: [] };
    let chain = null as {
      memberId: string | null;
      seq: number;
      hash: string;
      broken: boolean;
    } | null;
    const rows =
      memberId === undefined
        ? this.repository.allInChainOrder()
        : this.repository.chainInOrder(memberId);
    for await (const row of rows) {
      report.rows += 1;
      if (chain?.memberId !== row.memberId) {
        report.chains += 1;
        chain = { memberId: row.memberId, seq: 0, hash: '', broken: false };
      }
      if (!chain.broken) {
        const reason = checkRow(row, chain.seq, chain.seq === 0 ? null : chain.hash);
        if (reason !== null) {
          chain.broken = true;
          report.broken.push({ memberId: row.memberId, seq: row.seq, id: row.id, reason });
        }
      }
      chain.seq = row.seq;
      chain.hash = row.hash;
    }
    return report;
  }
}

/** Why a row does not follow the previous one of its chain, or null when it does. */
function checkRow(
  row: AuditEventRow,
  previousSeq: number,
  previousHash: string | null,
): BrokenRow['reason'] | null {
  // A missing position means a row was removed.
  if (row.seq !== previousSeq + 1) return 'gap';
  if (row.prevHash !== previousHash) return 'link';
  return auditHash(row.prevHash, row) === row.hash ? null : 'hash';
}
