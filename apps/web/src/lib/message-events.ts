import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { messageEventPaths, messageEventTicket } from '@dental/contracts';
import { apiRequest } from './api-client';

/** Every query of the member's messages starts with this key, so one event refreshes them all. */
export const messagesQueryKey = ['messages'] as const;

/** Wait before asking for a new ticket after a stream closed for good. */
const reopenMs = 5_000;

/** One side's event stream: where to ask for a ticket and open the stream, and which queries an
 *  event refreshes (the member's by default; the clinic console passes the staff side's). */
export interface MessageStream {
  paths: { ticket: string; stream: string };
  queryKey: readonly unknown[];
}

const memberStream: MessageStream = { paths: messageEventPaths, queryKey: messagesQueryKey };

/**
 * Keeps one side's messages live (docs/decisions/care-messages-live.md): opens the event
 * stream with a short-lived ticket (an EventSource cannot send the access token), and on each
 * event refetches the messages' queries. The browser reconnects by itself after a network blip;
 * once the server refuses the old ticket (a stream lasts 10 minutes) a new one is asked for.
 */
export function useLiveMessages({ paths, queryKey }: MessageStream = memberStream): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    // Without EventSource (an old browser, the component tests) the screens still load on visit.
    if (typeof EventSource === 'undefined') return;
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const refresh = () => {
      void queryClient.invalidateQueries({ queryKey });
    };
    const open = async () => {
      try {
        const { ticket } = await apiRequest(paths.ticket, messageEventTicket, { method: 'POST' });
        if (stopped) return;
        source = new EventSource(`${paths.stream}?ticket=${encodeURIComponent(ticket)}`);
        source.addEventListener('thread', refresh);
        // Sent on opening and after missed notices: what is shown may be stale.
        source.addEventListener('resync', refresh);
        source.onerror = () => {
          if (source?.readyState === EventSource.CLOSED) reopenLater();
        };
      } catch {
        reopenLater();
      }
    };
    const reopenLater = () => {
      source?.close();
      if (!stopped) retry = setTimeout(() => void open(), reopenMs);
    };
    void open();
    return () => {
      stopped = true;
      clearTimeout(retry);
      source?.close();
    };
    // Each side passes module constants, so the stream is opened once per screen.
  }, [queryClient, paths, queryKey]);
}
