import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  shareLinkCreated,
  shareLinkList,
  shareLinkPaths,
  type NewShareLinkRequest,
} from '@dental/contracts';
import { apiRequest, apiSend } from './api-client';

/**
 * The member's share links (docs/product/sharing.md). Shared here rather than in a feature: the
 * photo and record lists make links, Shared links lists and revokes them, and Account activity
 * names them by label.
 */
export const shareLinkKeys = { all: ['share-links'] as const };

/** GET /api/share-link/: newest first. */
export function useShareLinks(enabled = true) {
  return useQuery({
    queryKey: shareLinkKeys.all,
    queryFn: () => apiRequest(shareLinkPaths.list, shareLinkList),
    enabled,
  });
}

/** POST /api/share-link/: the answer holds the link's URL, shown once. */
export function useCreateShareLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: NewShareLinkRequest) =>
      apiRequest(shareLinkPaths.list, shareLinkCreated, { method: 'POST', body: request }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: shareLinkKeys.all });
    },
  });
}

/** DELETE /api/share-link/{id}/: the link stops working at once. */
export function useRevokeShareLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiSend(shareLinkPaths.one(id), { method: 'DELETE' }),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: shareLinkKeys.all });
    },
  });
}
