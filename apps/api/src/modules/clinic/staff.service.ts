import {
  staffInvitationPagePath,
  type AcceptInvitationRequest,
  type InviteStaffRequest,
  type RegisterResponse,
  type StaffList,
  type StaffRole,
} from '@dental/contracts';
import type { Mailer } from '#api/adapters/mailer';
import type { Clock } from '#api/clock';
import type { Database } from '#api/db/client';
import { BadRequest, Conflict, NotFound } from '#api/domain-errors';
import { htmlParagraphs } from '#api/lib/html';
import type { ErrorLogger } from '#api/logger';
import type { StaffMember } from './staff-guard.plugin';
import type { StaffProfile, StaffRepository } from './staff.repository';

/** The first admin's name until they change it in their account. */
export const firstAdminName = 'Clinic administrator';

/** An invitation link works this long, and once. */
export const invitationLifetimeMs = 72 * 60 * 60 * 1000;

export const addressHasAccountMessage =
  'This e-mail address already has an account. A staff account needs an address of its own: invite the practice address of this person instead.';
export const practitionerNameTakenMessage =
  'A practitioner of this name already exists. Add a middle initial or a title to tell them apart.';
export const invalidInvitationMessage =
  'This invitation link is invalid, has already been used or has expired. Ask the practice’s administrator for a new one.';
export const staffNotFoundMessage = 'This staff member was not found.';
export const notYourselfMessage =
  'You cannot deactivate your own account. Ask another administrator.';

/** What the clinic module takes from the auth module, wired in services.ts. */
export interface StaffAccountPorts {
  /** The hash of a new password after the members' rules (400 for a common password). */
  passwordHash(password: string): Promise<string>;
  newToken(): string;
  hashToken(token: string): string;
  /** Ends every session of the account, in the transaction `tx`. */
  endSessions(tx: Database, userId: string, now: Date): Promise<void>;
}

export interface StaffSettings {
  publicUrl: string;
  companyName: string;
}

/** Staff accounts: who they are on each request, invitations, the first admin and deactivation
 *  (docs/decisions/clinic-staff.md). */
export class StaffService {
  constructor(
    private readonly repository: StaffRepository,
    private readonly accounts: StaffAccountPorts,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly settings: StaffSettings,
    private readonly log: ErrorLogger,
  ) {}

  profile(userId: string): Promise<StaffProfile | undefined> {
    return this.repository.profile(userId);
  }

  /** An admin invites someone; an open invitation of the same address is replaced. */
  async invite(admin: StaffMember, request: InviteStaffRequest): Promise<{ id: string }> {
    if (await this.repository.accountExists(request.email)) {
      throw new Conflict(addressHasAccountMessage, { email: [addressHasAccountMessage] });
    }
    if (request.role === 'practitioner' && (await this.repository.doctorNameTaken(request.name))) {
      throw new Conflict(practitionerNameTakenMessage, { name: [practitionerNameTakenMessage] });
    }
    const id = await this.createInvitation(request, admin.id);
    return { id };
  }

  /**
   * At start: invites `email` as the first clinic_admin unless an active admin exists, the
   * address already has an account, or an invitation of it is still open. Concurrent starts
   * take turns on a lock, so the e-mail goes once.
   */
  async inviteFirstAdmin(email: string): Promise<'invited' | 'not needed' | 'address has account'> {
    const outcome = await this.repository.transaction(async (tx) => {
      await tx.lockFirstAdmin();
      if (await tx.activeAdminExists()) return 'not needed' as const;
      if (await tx.accountExists(email)) return 'address has account' as const;
      if ((await tx.openInvitation({ email }, this.clock.now())) !== undefined) {
        return 'not needed' as const;
      }
      const first = { email, name: firstAdminName, role: 'clinic_admin' } as const;
      return this.insertInvitation(tx, first, null);
    });
    if (typeof outcome === 'string') return outcome;
    await this.sendInvitation(email, 'clinic_admin', outcome.token);
    return 'invited';
  }

  /** The invited person chooses a password: their staff account, and a practitioner's doctor. */
  async accept(request: AcceptInvitationRequest): Promise<RegisterResponse> {
    const tokenHash = this.accounts.hashToken(request.token);
    const now = this.clock.now();
    const open = await this.repository.openInvitation({ tokenHash }, now);
    // Checked before hashing, so made-up tokens cost the server no hashing work.
    if (open === undefined) throw invalidInvitation();
    const passwordHash = await this.accounts.passwordHash(request.password);
    const id = await this.repository.transaction(async (tx) => {
      const invitation = await tx.claimInvitation(tokenHash, now);
      if (invitation === undefined) throw invalidInvitation();
      const { email, name, role } = invitation;
      const staffRole = role as StaffRole;
      const userId = await tx.insertStaffUser({ email, name, role: staffRole, passwordHash }, now);
      if (userId === null) throw new Conflict(addressHasAccountMessage);
      await tx.setInvitationAccount(invitation.id, userId);
      if (
        staffRole === 'practitioner' &&
        (await tx.linkOrCreateDoctor(name, userId, now)) === null
      ) {
        throw new Conflict(practitionerNameTakenMessage);
      }
      return userId;
    });
    return { id, email: open.email };
  }

  /** Staff accounts and the invitations still open. */
  async list(): Promise<StaffList> {
    const [accounts, invitations] = await Promise.all([
      this.repository.staffAccounts(),
      this.repository.openInvitations(this.clock.now()),
    ]);
    return {
      results: [
        ...invitations.map((invitation) => ({
          id: invitation.id,
          email: invitation.email,
          name: invitation.name,
          role: invitation.role as StaffRole,
          status: 'invited' as const,
          practitioner_id: null,
          invited_at: invitation.createdAt.toISOString(),
        })),
        ...accounts.map((account) => ({
          id: account.id,
          email: account.email,
          name: account.name,
          role: account.role,
          status: account.deactivatedAt === null ? ('active' as const) : ('deactivated' as const),
          practitioner_id: account.practitionerId,
          invited_at: account.invitedAt?.toISOString() ?? null,
        })),
      ],
    };
  }

  /** Deactivates a staff account (its sessions end in the same transaction) or withdraws an
   *  open invitation. The practitioner's doctor row stays: their bookings keep their name. */
  async deactivate(admin: StaffMember, id: string): Promise<void> {
    if (id === admin.id) throw new Conflict(notYourselfMessage);
    const now = this.clock.now();
    const done = await this.repository.transaction(async (tx, db) => {
      if (await tx.deactivateStaff(id, now)) {
        await this.accounts.endSessions(db, id, now);
        return true;
      }
      return tx.withdrawInvitation(id, now);
    });
    if (!done) throw new NotFound(staffNotFoundMessage);
  }

  private async createInvitation(
    request: InviteStaffRequest,
    invitedBy: string | null,
  ): Promise<string> {
    const { id, token } = await this.repository.transaction(async (tx) => {
      await tx.withdrawOpenInvitations(request.email, this.clock.now());
      return this.insertInvitation(tx, request, invitedBy);
    });
    await this.sendInvitation(request.email, request.role, token);
    return id;
  }

  private async insertInvitation(
    tx: StaffRepository,
    { email, name, role }: InviteStaffRequest,
    invitedBy: string | null,
  ): Promise<{ id: string; token: string }> {
    const token = this.accounts.newToken();
    const now = this.clock.now();
    const id = await tx.insertInvitation({
      email,
      name,
      role,
      tokenHash: this.accounts.hashToken(token),
      invitedBy,
      createdAt: now,
      expiresAt: new Date(now.getTime() + invitationLifetimeMs),
    });
    return { id, token };
  }

  /** The link and what the account is for; no patient's data. An e-mail that cannot be sent is
   *  logged: the admin can invite the address again. */
  private async sendInvitation(to: string, role: StaffRole, token: string): Promise<void> {
    const { companyName, publicUrl } = this.settings;
    const link = `${publicUrl}${staffInvitationPagePath}?token=${encodeURIComponent(token)}`;
    const roleWords = role === 'clinic_admin' ? 'an administrator' : 'a practitioner';
    const lines = [
      'Hello,',
      `You are invited to the clinic console of ${companyName} as ${roleWords}. Open this link within 72 hours to choose your password:`,
      link,
      'Before you can see any patient’s information, the console asks you to set up an authenticator app or a passkey.',
      'If you did not expect this, you can ignore this e-mail.',
      companyName,
    ];
    try {
      await this.mailer.send({
        to,
        subject: `Your staff account at ${companyName}`,
        text: lines.join('\n\n'),
        html: htmlParagraphs(lines),
      });
    } catch (error) {
      this.log.error({ err: error }, 'staff invitation e-mail could not be sent');
    }
  }
}

function invalidInvitation(): BadRequest {
  return new BadRequest(invalidInvitationMessage, { token: [invalidInvitationMessage] });
}
