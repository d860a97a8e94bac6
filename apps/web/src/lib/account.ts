import { queryOptions, useQuery } from '@tanstack/react-query';
import { account, accountPaths } from '@dental/contracts';
import { apiRequest } from './api-client';
import { useSession } from './session';

/** The signed-in user; fetched once per session and then kept (docs/product/accounts.md#session),
 *  and replaced by the answers of profile edits. */
export const accountQuery = queryOptions({
  queryKey: ['account'],
  queryFn: () => apiRequest(accountPaths.account, account),
  staleTime: Infinity,
});

export function useAccount() {
  const { access } = useSession();
  return useQuery({ ...accountQuery, enabled: access !== null });
}
