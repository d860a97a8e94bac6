import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  accountPaths,
  problemTypes,
  secondFactorPaths,
  secondFactorStatus,
  type ReauthenticateRequest,
} from '@dental/contracts';
import { ApiError, apiRequest, apiSend } from './api-client';

// The step-up before a sensitive change (docs/decisions/session-timeouts.md), which the sign-in
// methods, the social accounts and the account's deletion all ask for.

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

/** The server wants the password (or a code) again before it makes the change. */
export function needsPassword(error: unknown): boolean {
  return error instanceof ApiError && error.type === problemTypes.reauthenticationRequired;
}
