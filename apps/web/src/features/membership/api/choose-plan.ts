import { useMutation } from '@tanstack/react-query';
import { choosePlanResponse, membershipPaths, type ChoosePlanRequest } from '@dental/contracts';
import { apiRequest } from '../../../lib/api-client';

/** Creates the pending payment whose checkout the browser then opens (SPEC §4 Plan choice flow). */
export function useChoosePlan() {
  return useMutation({
    mutationFn: (request: ChoosePlanRequest) =>
      apiRequest(membershipPaths.choosePlan, choosePlanResponse, {
        method: 'POST',
        body: request,
      }),
  });
}

/** The full-page checkout address of a chosen plan (SPEC §7). */
export function checkoutAddress(paymentId: string): string {
  return `${membershipPaths.checkout}?${new URLSearchParams({ payment_id: paymentId })}`;
}
