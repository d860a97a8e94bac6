import { createHash } from 'node:crypto';
import type { AuditEventRow } from '#api/db/schema';

export type HashedFields = Omit<AuditEventRow, 'prevHash' | 'hash'>;

/**
 * SHA-256 over the previous hash of the same chain and the row's fields in a fixed order, as
 * JSON so that no field can bleed into the next (docs/decisions/audit-trail.md).
 */
export function auditHash(prevHash: string | null, row: HashedFields): string {
  const canonical = JSON.stringify([
    row.id,
    row.memberId,
    row.seq,
    row.at.toISOString(),
    row.actor,
    row.action,
    row.resourceType,
    row.resourceId,
    row.result,
    row.ip,
    row.userAgent,
    row.requestId,
  ]);
  return createHash('sha256')
    .update(`${prevHash ?? ''}\n${canonical}`)
    .digest('hex');
}
