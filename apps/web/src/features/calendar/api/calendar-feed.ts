import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { calendarFeedCreated, calendarFeedStatus, calendarPaths } from '@dental/contracts';
import { apiRequest, apiSend } from '#web/lib/api-client';

const feedKey = ['calendar-feed'];

/** GET /api/calendar-feed/: whether the member has a feed URL, and since when. */
export function useCalendarFeed() {
  return useQuery({
    queryKey: feedKey,
    queryFn: () => apiRequest(calendarPaths.feed, calendarFeedStatus),
  });
}

/** POST /api/calendar-feed/: a new URL, answered once; the old one stops working. */
export function useCreateCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(calendarPaths.feed, calendarFeedCreated, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: feedKey }),
  });
}

/** DELETE /api/calendar-feed/: the URL answers 404 from now on. */
export function useRevokeCalendarFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiSend(calendarPaths.feed, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: feedKey }),
  });
}
