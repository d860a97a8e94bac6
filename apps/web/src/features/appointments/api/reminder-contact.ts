import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { account, accountPaths, type Account } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';

// The signed-in account, under the same cache key the rest of the app uses for it, so a phone
// saved here shows on the profile too (features do not import each other).
const accountQuery = queryOptions({
  queryKey: ['account'],
  queryFn: () => apiRequest(accountPaths.account, account),
  staleTime: Infinity,
});

/** Where reminders go: the account's e-mail address and phone (GET /api/account/). */
export function useReminderContact() {
  return useQuery(accountQuery);
}

/** Saves the phone SMS reminders go to on the profile (PUT /api/account/,
 *  docs/product/accounts.md#account-calls). */
export function useSaveReminderPhone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ current, phone }: { current: Account; phone: string | null }) =>
      apiRequest(accountPaths.account, account, {
        method: 'PUT',
        body: { ...current, phone },
      }),
    onSuccess: (updated) => {
      queryClient.setQueryData(accountQuery.queryKey, updated);
    },
  });
}
