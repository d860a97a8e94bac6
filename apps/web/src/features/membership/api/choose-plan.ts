import { useMutation } from '@tanstack/react-query';
import { choosePlanResponse, membershipPaths, type ChoosePlanRequest } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';

/** Creates the pending payment whose checkout the browser then opens
 *  (docs/product/membership.md#choosing-a-plan). */
export function useChoosePlan() {
  return useMutation({
    mutationFn: (request: ChoosePlanRequest) =>
      apiRequest(membershipPaths.choosePlan, choosePlanResponse, {
        method: 'POST',
        body: request,
      }),
  });
}

/** The full-page checkout address of a chosen plan (docs/product/membership.md#checkout). */
export function checkoutAddress(paymentId: string): string {
  return `${membershipPaths.checkout}?${new URLSearchParams({ payment_id: paymentId })}`;
}
