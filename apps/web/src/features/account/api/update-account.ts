import { useMutation, useQueryClient } from '@tanstack/react-query';
import { account, accountPaths, type Account } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { accountQuery } from '#web/lib/account';

export type AccountChanges = Partial<
  Pick<Account, 'username' | 'phone' | 'given_name' | 'family_name' | 'birth_date' | 'sex'>
>;

/** PUT sends the whole user object with the change (docs/product/accounts.md#account-calls); the
 *  server changes only the name, phone and health record details, and its answer replaces the cached user. */
export function useUpdateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ current, changes }: { current: Account; changes: AccountChanges }) =>
      apiRequest(accountPaths.account, account, {
        method: 'PUT',
        body: { ...current, ...changes },
      }),
    onSuccess: (updated) => {
      queryClient.setQueryData(accountQuery.queryKey, updated);
    },
  });
}
