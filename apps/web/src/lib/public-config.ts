import { queryOptions, useQuery } from '@tanstack/react-query';
import { configPath, publicConfig } from '@dental/contracts';
import { apiRequest } from './api-client';

/** Company name, customer-service e-mail and configured social providers; read once. */
export const publicConfigQuery = queryOptions({
  queryKey: ['config'],
  queryFn: () => apiRequest(configPath, publicConfig, { auth: false }),
  staleTime: Infinity,
});

export function usePublicConfig() {
  return useQuery(publicConfigQuery);
}
