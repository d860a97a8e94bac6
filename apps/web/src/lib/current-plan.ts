import { queryOptions, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { currentPlan, membershipPaths, type CurrentPlan } from '@dental/contracts';
import { apiRequest } from './api-client';
import { dateFormat } from './dates';

/** GET /api/membership-payment/current: the member's plan and when a paid term ends, shown on
 *  Membership and Profile (docs/decisions/membership-current-plan.md). */
export const currentPlanQuery = queryOptions({
  queryKey: ['membership', 'current'],
  queryFn: () => apiRequest(membershipPaths.current, currentPlan),
});

export function useCurrentPlan() {
  return useQuery(currentPlanQuery);
}

/** 'Ends on 2027-11-25', or 'Free, no end date' for Silver. */
export function planEndText(plan: CurrentPlan): string {
  return plan.ends_at === null
    ? 'Free, no end date'
    : `Ends on ${dayjs(plan.ends_at).format(dateFormat)}`;
}
