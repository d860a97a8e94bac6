import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dataExportList, dataExportPaths, dataExportStarted } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';

const exportsKey = ['data-exports'];
/** How often the list is read again while an archive is being built. */
const pollMs = 1500;

/** GET /api/account/export/: the member's exports, read again while one is being built. */
export function useDataExports() {
  return useQuery({
    queryKey: exportsKey,
    queryFn: () => apiRequest(dataExportPaths.root, dataExportList),
    refetchInterval: (query) =>
      query.state.data?.some((row) => row.status === 'queued' || row.status === 'running')
        ? pollMs
        : false,
  });
}

/** POST /api/account/export/: starts an archive (or answers the one being built). */
export function useStartDataExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(dataExportPaths.root, dataExportStarted, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: exportsKey }),
  });
}
