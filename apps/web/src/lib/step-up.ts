import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  accountPaths,
  secondFactorPaths,
  secondFactorStatus,
  type ReauthenticateRequest,
} from '@dental/contracts';
import { apiRequest, apiSend } from './api-client';

// The step-up before a sensitive change (docs/decisions/session-timeouts.md), which the sign-in
// methods, the social accounts and the account's deletion all ask for; its dialog is
// components/password-check-dialog.tsx.

/** Whether the member has an authenticator app on (docs/decisions/second-factor.md). */
export const secondFactorQuery = queryOptions({
  queryKey: ['account', 'second-factor'],
  queryFn: () => apiRequest(secondFactorPaths.status, secondFactorStatus),
});

export function useSecondFactorStatus(enabled = true) {
  return useQuery({ ...secondFactorQuery, enabled });
}

/** Given the password or a code, the session is re-checked before the change is sent. */
export async function confirmIdentity(proof: ReauthenticateRequest | undefined) {
  if (proof === undefined) return;
  await apiSend(accountPaths.reauthenticate, { method: 'POST', body: proof });
}
