import { useEffect, type ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ApiError } from '../lib/api-client';
import { sessionStore } from '../lib/session-store';
import { cssVariablesResolver, theme } from './theme';

/** Client errors (4xx) are answers, not glitches: retrying them only delays the message. */
function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: shouldRetry }, mutations: { retry: false } },
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
