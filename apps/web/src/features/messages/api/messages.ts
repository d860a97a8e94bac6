import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createdMessage,
  dentalAiPaths,
  dentalAiResultList,
  medicalRecordList,
  medicalRecordPaths,
  messagePaths,
  messageThread,
  messageThreadList,
  oralPhotoList,
  oralPhotoPaths,
  type NewMemberMessage,
  type NewMessageThread,
} from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { messagesQueryKey } from '#web/lib/message-events';

export const messageKeys = {
  threads: [...messagesQueryKey, 'threads'] as const,
  thread: (id: string) => [...messagesQueryKey, 'thread', id] as const,
};

/** The member's conversations, newest message first (the first page: 50). */
export function useThreads() {
  return useQuery({
    queryKey: messageKeys.threads,
    queryFn: () => apiRequest(messagePaths.threads, messageThreadList),
  });
}

/** One conversation; reading it marks the practice's messages read. */
export function useThread(id: string) {
  return useQuery({
    queryKey: messageKeys.thread(id),
    queryFn: () => apiRequest(messagePaths.thread(id), messageThread),
  });
}

export function useStartThread() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewMessageThread) =>
      apiRequest(messagePaths.threads, createdMessage, { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messagesQueryKey }),
  });
}

export function useReply(threadId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewMemberMessage) =>
      apiRequest(messagePaths.thread(threadId), createdMessage, { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messagesQueryKey }),
  });
}

/** The member's own items to attach: the first page of photos, records and Dental AI results. */
export function useAttachableItems() {
  return useQuery({
    // Not under the messages' key: an event refreshes the conversations, not the member's items.
    queryKey: ['message-attachable'],
    queryFn: async () => {
      const [photos, records, dentalAi] = await Promise.all([
        apiRequest(oralPhotoPaths.list, oralPhotoList),
        apiRequest(medicalRecordPaths.list, medicalRecordList),
        apiRequest(dentalAiPaths.results, dentalAiResultList),
      ]);
      return { photos, records, dentalAi };
    },
  });
}
