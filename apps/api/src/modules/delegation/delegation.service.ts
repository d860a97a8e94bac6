import {
  delegationDuplicateMessage,
  delegationLimitMessage,
  delegationNotFoundMessage,
  delegationSelfMessage,
  maxDelegates,
  type AuditAction,
  type Delegate,
  type DelegationInvited,
  type ReceivedDelegation,
} from '@dental/contracts';
import type { Mailer } from '#api/adapters/mailer';
import type { Clock } from '#api/clock';
import { Conflict, NotFound, UnprocessableEntity } from '#api/domain-errors';
import type { ErrorLogger } from '#api/logger';
import { htmlParagraphs } from '#api/lib/html';
import type { DelegationRepository, Invitee, ReceivedDelegationRow } from './delegation.repository';

/** The audit trail as delegation uses it: AuditService, wired in services.ts. */
export interface DelegationAudit {
  record(event: {
    memberId: string;
    actor: string;
    action: AuditAction;
    resourceType: 'delegation';
    resourceId: string;
    result: 'success';
  }): Promise<void>;
}

export interface DelegationSettings {
  /** The web app's origin, for the link in the invitation. */
  publicUrl: string;
  companyName: string;
}

const received = (row: ReceivedDelegationRow): ReceivedDelegation => ({
  id: row.id,
  owner: { id: row.ownerId, username: row.ownerName },
  status: row.delegateId === null ? 'invited' : 'active',
});

/**
 * Proxy access (docs/decisions/proxy-access.md): invitations by e-mail, acceptance by the member
 * whose account e-mail matches, revocation by the owner and leaving by the delegate. Each step is
 * a row in the OWNER's audit chain, its actor the person who took it.
 */
export class DelegationService {
  constructor(
    private readonly repository: DelegationRepository,
    private readonly audit: DelegationAudit,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly settings: DelegationSettings,
    private readonly log: ErrorLogger,
  ) {}

  /** Invites `email`. The answer and the e-mail are the same whether or not the address has an
   *  account, so an invitation tells the owner nothing about who is registered. */
  async invite(ownerId: string, email: string): Promise<DelegationInvited> {
    const owner = await this.requireMember(ownerId);
    if (owner.email.toLowerCase() === email.toLowerCase()) {
      throw new UnprocessableEntity(delegationSelfMessage, { email: [delegationSelfMessage] });
    }
    if ((await this.repository.countForOwner(ownerId)) >= maxDelegates) {
      throw new UnprocessableEntity(delegationLimitMessage);
    }
    const row = await this.repository.insert(ownerId, email, this.clock.now());
    if (row === null) {
      throw new Conflict(delegationDuplicateMessage, { email: [delegationDuplicateMessage] });
    }
    await this.record(ownerId, ownerId, 'delegate_invite', row.id);
    await this.sendInvitation(owner.username, email);
    return { id: row.id, email: row.email, status: 'invited' };
  }

  async delegates(ownerId: string): Promise<Delegate[]> {
    const rows = await this.repository.listForOwner(ownerId);
    return rows.map((row) => ({
      id: row.id,
      email: row.email,
      status: row.delegateId === null ? 'invited' : 'active',
      invited_at: row.invitedAt.toISOString(),
      accepted_at: row.acceptedAt?.toISOString() ?? null,
      username: row.delegateName,
    }));
  }

  async received(memberId: string): Promise<ReceivedDelegation[]> {
    const rows = await this.repository.listReceived(await this.invitee(memberId));
    return rows.map(received);
  }

  /** Only the member whose account e-mail the invitation names may accept it; for anyone else
   *  it does not exist. Accepting twice is harmless. */
  async accept(memberId: string, id: string): Promise<ReceivedDelegation> {
    const invitee = await this.invitee(memberId);
    const row = await this.repository.findReceived(id, invitee);
    if (row === undefined || row.ownerId === memberId)
      throw new NotFound(delegationNotFoundMessage);
    if (row.delegateId === null) {
      if (!(await this.repository.accept(id, invitee, this.clock.now()))) {
        throw new NotFound(delegationNotFoundMessage);
      }
      await this.record(row.ownerId, memberId, 'delegate_accept', id);
    }
    return { ...received(row), status: 'active' };
  }

  /** The owner revokes, or the delegate leaves (or declines an open invitation). */
  async remove(memberId: string, id: string): Promise<void> {
    const revoked = await this.repository.deleteAsOwner(id, memberId);
    if (revoked !== undefined) {
      await this.record(memberId, memberId, 'delegate_revoke', id);
      return;
    }
    const left = await this.repository.deleteAsInvitee(id, await this.invitee(memberId));
    if (left === undefined) throw new NotFound(delegationNotFoundMessage);
    await this.record(left.ownerId, memberId, 'delegate_leave', id);
  }

  /** Whether `delegateId` may read `ownerId`'s record right now. */
  mayRead(ownerId: string, delegateId: string): Promise<boolean> {
    return this.repository.isActiveGrant(ownerId, delegateId);
  }

  private async requireMember(memberId: string) {
    const member = await this.repository.activeMember(memberId);
    // The session check already refused deactivated members; this is a race with deactivation.
    if (member === undefined) throw new NotFound(delegationNotFoundMessage);
    return member;
  }

  private async invitee(memberId: string): Promise<Invitee> {
    const { id, email } = await this.requireMember(memberId);
    return { id, email };
  }

  private record(ownerId: string, actor: string, action: AuditAction, id: string) {
    return this.audit.record({
      memberId: ownerId,
      actor,
      action,
      resourceType: 'delegation',
      resourceId: id,
      result: 'success',
    });
  }

  /** An e-mail that cannot be sent is logged; the invitation stands and can be accepted. */
  private async sendInvitation(ownerName: string, email: string): Promise<void> {
    const { companyName, publicUrl } = this.settings;
    const lines = [
      'Hello,',
      `${ownerName} has invited you to view their dental record in ${companyName}: their photos, X-rays, records, appointments and Dental AI results. You can look but not change anything.`,
      `To accept, sign in to ${companyName} with this e-mail address (or sign up with it), open your Profile and choose Accept under 'Records shared with me': ${publicUrl}/account`,
      `If you do not know ${ownerName}, you can ignore this e-mail.`,
      companyName,
    ];
    try {
      await this.mailer.send({
        to: email,
        // Fixed: a subject holding the member's own words would let anyone send spam as us.
        subject: `Invitation to view a dental record in ${companyName}`,
        text: lines.join('\n\n'),
        html: htmlParagraphs(lines),
      });
    } catch (error) {
      this.log.error({ err: error }, 'delegation invitation e-mail could not be sent');
    }
  }
}
