import { z } from 'zod';
import { email } from './account';

/**
 * Proxy access (docs/decisions/proxy-access.md): a member lets another member view their health
 * information, read-only. The delegate reads through the owner's own read routes with
 * `?member={owner id}`.
 */
export const delegationPaths = {
  /** POST: invite by e-mail; GET: the delegates I granted. */
  delegates: '/api/delegation/',
  /** The grants made to me. */
  received: '/api/delegation/received/',
  one: (id: string) => `/api/delegation/${encodeURIComponent(id)}/`,
  accept: (id: string) => `/api/delegation/${encodeURIComponent(id)}/accept/`,
} as const;

/** The query parameter that names whose record a read is for. */
export const delegationMemberParam = 'member';

/** How many people a member may invite at one time (invited or active). */
export const maxDelegates = 10;

export const delegationStatuses = ['invited', 'active'] as const;
export type DelegationStatus = (typeof delegationStatuses)[number];

export const delegationNotFoundMessage = 'This invitation was not found.';
export const delegationSelfMessage = 'You cannot invite yourself.';
export const delegationDuplicateMessage = 'You have already invited this address.';
export const delegationLimitMessage = `You can let at most ${String(maxDelegates)} people view your record. Remove someone first.`;
/** The answer to `?member=` on a route a delegate may not use, or without an active grant. */
export const delegatedRecordNotFoundMessage = 'This record was not found.';

export const delegationIdParams = z.object({ id: z.uuid('This is not an invitation id.') });

export const inviteDelegateRequest = z.object({ email });
export type InviteDelegateRequest = z.infer<typeof inviteDelegateRequest>;

/** What `POST /api/delegation/` answers. */
export const delegationInvited = z.object({
  id: z.uuid(),
  email: z.string(),
  status: z.literal('invited'),
});
export type DelegationInvited = z.infer<typeof delegationInvited>;

/** One person I let view my record. */
export const delegate = z.object({
  id: z.uuid(),
  email: z.string(),
  status: z.enum(delegationStatuses),
  invited_at: z.iso.datetime({ offset: true }),
  /** Null until the invitation is accepted. */
  accepted_at: z.iso.datetime({ offset: true }).nullable(),
  /** The delegate's name once they accepted; null before. */
  username: z.string().nullable(),
});
export type Delegate = z.infer<typeof delegate>;
export const delegateList = z.array(delegate);

/** One record shared with me. */
export const receivedDelegation = z.object({
  id: z.uuid(),
  owner: z.object({ id: z.uuid(), username: z.string() }),
  status: z.enum(delegationStatuses),
});
export type ReceivedDelegation = z.infer<typeof receivedDelegation>;
export const receivedDelegationList = z.array(receivedDelegation);
