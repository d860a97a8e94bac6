import { and, asc, eq, getTableColumns, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '#api/db/client';
import { isUniqueViolation } from '#api/db/errors';
import { delegations, users, type DelegationRow } from '#api/db/schema';

/** A grant as the owner's list shows it: with the delegate's name once accepted. */
export interface OwnerDelegationRow extends DelegationRow {
  delegateName: string | null;
}

/** A grant as the invitee's list shows it: with the owner's name. */
export interface ReceivedDelegationRow extends DelegationRow {
  ownerName: string;
}

/** The member a signed-in person is, as far as invitations go. */
export interface Invitee {
  id: string;
  email: string;
}

const sameEmail = (email: string): SQL => sql`lower(${delegations.email}) = lower(${email})`;

/** Grants the invitee may see: accepted by them, or still open to their account e-mail. */
const reachableBy = (invitee: Invitee): SQL | undefined =>
  or(
    eq(delegations.delegateId, invitee.id),
    and(isNull(delegations.delegateId), sameEmail(invitee.email)),
  );

const owners = alias(users, 'owners');

/** The only code that reads or writes delegations. */
export class DelegationRepository {
  constructor(private readonly db: Database) {}

  /** The active member's name and account e-mail, or undefined when deactivated or unknown. */
  async activeMember(
    memberId: string,
  ): Promise<{ id: string; email: string; username: string } | undefined> {
    const [row] = await this.db
      .select({ id: users.id, email: users.email, username: users.username })
      .from(users)
      .where(and(eq(users.id, memberId), isNull(users.deactivatedAt)));
    return row;
  }

  async countForOwner(ownerId: string): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(delegations)
      .where(eq(delegations.ownerId, ownerId));
    return row?.n ?? 0;
  }

  /** The new invitation, or null when the owner already invited this address (any case). */
  async insert(ownerId: string, email: string, now: Date): Promise<DelegationRow | null> {
    try {
      const [row] = await this.db
        .insert(delegations)
        .values({ ownerId, email, invitedAt: now })
        .returning();
      return row ?? null;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  listForOwner(ownerId: string): Promise<OwnerDelegationRow[]> {
    return this.db
      .select({
        id: delegations.id,
        ownerId: delegations.ownerId,
        email: delegations.email,
        delegateId: delegations.delegateId,
        invitedAt: delegations.invitedAt,
        acceptedAt: delegations.acceptedAt,
        delegateName: users.username,
      })
      .from(delegations)
      .leftJoin(users, eq(users.id, delegations.delegateId))
      .where(eq(delegations.ownerId, ownerId))
      .orderBy(asc(delegations.invitedAt), asc(delegations.id));
  }

  /** Grants to the invitee from owners whose accounts are active. */
  listReceived(invitee: Invitee): Promise<ReceivedDelegationRow[]> {
    return this.received(reachableBy(invitee)).orderBy(asc(owners.username), asc(delegations.id));
  }

  /** The grant with this id that the invitee may see, with its owner's name. */
  async findReceived(id: string, invitee: Invitee): Promise<ReceivedDelegationRow | undefined> {
    const [row] = await this.received(and(eq(delegations.id, id), reachableBy(invitee)));
    return row;
  }

  /** Grants matching `condition`, with their owner's name, from owners whose accounts are
   *  active. */
  private received(condition: SQL | undefined) {
    return this.db
      .select({ ...getTableColumns(delegations), ownerName: owners.username })
      .from(delegations)
      .innerJoin(owners, eq(owners.id, delegations.ownerId))
      .where(and(condition, isNull(owners.deactivatedAt)));
  }

  /** Marks an open invitation accepted by the invitee; false when it was no longer open. */
  async accept(id: string, invitee: Invitee, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(delegations)
      .set({ delegateId: invitee.id, acceptedAt: now })
      .where(and(eq(delegations.id, id), isNull(delegations.delegateId), sameEmail(invitee.email)))
      .returning({ id: delegations.id });
    return rows.length === 1;
  }

  /** Deletes the owner's grant; the deleted row, or undefined when it is not theirs. */
  async deleteAsOwner(id: string, ownerId: string): Promise<DelegationRow | undefined> {
    const [row] = await this.db
      .delete(delegations)
      .where(and(eq(delegations.id, id), eq(delegations.ownerId, ownerId)))
      .returning();
    return row;
  }

  /** Deletes a grant made to the invitee (leaving, or declining an open invitation). */
  async deleteAsInvitee(id: string, invitee: Invitee): Promise<DelegationRow | undefined> {
    const [row] = await this.db
      .delete(delegations)
      .where(and(eq(delegations.id, id), reachableBy(invitee)))
      .returning();
    return row;
  }

  /** Whether `delegateId` may read `ownerId`'s record now: accepted, and the owner active. */
  async isActiveGrant(ownerId: string, delegateId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: delegations.id })
      .from(delegations)
      .innerJoin(users, eq(users.id, delegations.ownerId))
      .where(
        and(
          eq(delegations.ownerId, ownerId),
          eq(delegations.delegateId, delegateId),
          isNull(users.deactivatedAt),
        ),
      )
      .limit(1);
    return row !== undefined;
  }
}
