import { useEffect, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client';
import { sessionStore } from '../lib/session-store';
import { cssVariablesResolver, theme } from './theme';

/** Client errors (4xx) are answers, not glitches: retrying them only delays the message; so is
 *  a call made without a network (the screen says the device is offline). */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (!(error instanceof ApiError)) return failureCount < 2;
  const refused = error.status >= 400 && error.status < 500;
  const offline = error.status === 0 && !navigator.onLine;
  return !refused && !offline && failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Offline, a query is still tried once rather than held back: the service worker answers
      // the knowledge articles from its cache, and any other screen says it is offline
      // (docs/decisions/installable-app.md).
      queries: { retry: shouldRetry, networkMode: 'offlineFirst' },
      mutations: { retry: false },
    },
  });
}

/** When the session ends (log out, or tokens refused) nothing of the user's data may stay cached. */
function useForgetDataWhenSessionEnds(queryClient: QueryClient): void {
  useEffect(
    () =>
      sessionStore.subscribe(() => {
        if (sessionStore.getSnapshot().access === null) queryClient.clear();
      }),
    [queryClient],
  );
}

export interface AppProvidersProps {
  queryClient: QueryClient;
  children: ReactNode;
}

export function AppProviders({ queryClient, children }: AppProvidersProps) {
  useForgetDataWhenSessionEnds(queryClient);
  return (
    <QueryClientProvider client={queryClient}>
      {/* The theme's CSS variables ship in theme-variables.css: the CSP forbids inline <style>. */}
      <MantineProvider
        theme={theme}
        cssVariablesResolver={cssVariablesResolver}
        withCssVariables={false}
        withGlobalClasses={false}
        forceColorScheme="light"
      >
        <Notifications position="top-center" />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
