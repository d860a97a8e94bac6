import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  recoveryCodes,
  secondFactorPaths,
  totpEnrolment,
  type ReauthenticateRequest,
  type RemoveTotpRequest,
} from '@dental/contracts';
import { apiRequest, apiSend } from '#web/lib/api-client';
import { confirmIdentity, secondFactorQuery } from '#web/lib/step-up';

/** Step 1 of turning the app on: the password, answered by the secret and its QR code. */
export function useStartTotp() {
  return useMutation({
    mutationFn: (password: string) =>
      apiRequest(secondFactorPaths.totp, totpEnrolment, { method: 'POST', body: { password } }),
  });
}

/** Step 2: the first code turns the app on and answers the recovery codes, shown once. */
export function useConfirmTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      apiRequest(secondFactorPaths.confirmTotp, recoveryCodes, { method: 'POST', body: { code } }),
    onSuccess: () => queryClient.invalidateQueries(secondFactorQuery),
  });
}

/** Turns the app off; long after the sign-in the server wants a step-up first. */
export function useRemoveTotp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      proof,
      ...body
    }: RemoveTotpRequest & { proof?: ReauthenticateRequest }) => {
      await confirmIdentity(proof);
      await apiSend(secondFactorPaths.totp, { method: 'DELETE', body });
    },
    onSuccess: () => queryClient.invalidateQueries(secondFactorQuery),
  });
}
