import { z } from 'zod';
import { accountRole, email, password, username } from './account';
import { singleLineText } from './text';

/** The staff accounts of the clinic console (docs/decisions/clinic-staff.md). */
export const clinicStaffPaths = {
  /** GET: the signed-in staff member; answers before a second factor is enrolled. */
  me: '/api/clinic/me/',
  /** POST invites (admin), GET lists; DELETE `{staff}{id}/` deactivates (admin). */
  staff: '/api/clinic/staff/',
  /** POST: choose a password from an invitation's token. */
  acceptInvitation: '/api/clinic/invitations/accept/',
} as const;

/** Where the invitation e-mail leads: the console's page that asks for a password. */
export const staffInvitationPagePath = '/clinic/invitation';

export const staffRole = accountRole.exclude(['member']);

export const clinicMe = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  role: staffRole,
  /** Their doctor in the booking screens: a practitioner's, null for an admin. */
  practitioner_id: z.uuid().nullable(),
  second_factor_enrolled: z.boolean(),
});
export type ClinicMe = z.infer<typeof clinicMe>;

export const inviteStaffRequest = z.object({
  email,
  name: username,
  role: staffRole,
});
export type InviteStaffRequest = z.infer<typeof inviteStaffRequest>;

export const staffStatuses = ['invited', 'active', 'deactivated'] as const;

/** One staff member; `id` is the invitation's while invited, the account's once accepted. */
export const staffMember = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string(),
  role: staffRole,
  status: z.enum(staffStatuses),
  practitioner_id: z.uuid().nullable(),
  invited_at: z.iso.datetime({ offset: true }).nullable(),
});
export type StaffMemberEntry = z.infer<typeof staffMember>;
export const staffList = z.object({ results: z.array(staffMember) });
export type StaffList = z.infer<typeof staffList>;

/** The token of the e-mailed link and the password the new staff member chose (same rules as a
 *  member's). */
export const acceptInvitationRequest = z.object({
  token: singleLineText().min(1, 'The invitation link is incomplete.').max(200),
  password,
});
export type AcceptInvitationRequest = z.infer<typeof acceptInvitationRequest>;
