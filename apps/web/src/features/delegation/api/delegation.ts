import { useCallback } from 'react';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  delegateList,
  delegationInvited,
  delegationPaths,
  receivedDelegation,
  receivedDelegationList,
} from '@dental/contracts';
import { apiRequest, apiSend } from '#web/lib/api-client';
import { viewedRecordStore } from '#web/lib/viewed-record';

/** The people the member lets view their record (docs/product/proxy-access.md). */
export const delegatesQuery = queryOptions({
  queryKey: ['delegation', 'delegates'],
  queryFn: () => apiRequest(delegationPaths.delegates, delegateList),
});

/** The records others let the member view, and invitations to the member's e-mail. */
export const receivedDelegationsQuery = queryOptions({
  queryKey: ['delegation', 'received'],
  queryFn: () => apiRequest(delegationPaths.received, receivedDelegationList),
});

export function useDelegates() {
  return useQuery(delegatesQuery);
}

export function useReceivedDelegations() {
  return useQuery(receivedDelegationsQuery);
}

export function useInviteDelegate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest(delegationPaths.delegates, delegationInvited, {
        method: 'POST',
        body: { email },
      }),
    onSettled: () => queryClient.invalidateQueries(delegatesQuery),
  });
}

export function useAcceptDelegation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(delegationPaths.accept(id), receivedDelegation, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries(receivedDelegationsQuery),
  });
}

/** Revokes a delegate (owner) or stops viewing a shared record (delegate). */
export function useRemoveDelegation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend(delegationPaths.one(id), { method: 'DELETE' }),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries(delegatesQuery),
        queryClient.invalidateQueries(receivedDelegationsQuery),
      ]),
  });
}

/** Shows another's record (or the member's own, with null) on every health screen; what was
 *  loaded for the other record is dropped so nothing of one record shows under the other. */
export function useSwitchRecord() {
  const queryClient = useQueryClient();
  return useCallback(
    (record: { id: string; username: string } | null) => {
      viewedRecordStore.view(record);
      void queryClient.resetQueries();
    },
    [queryClient],
  );
}
