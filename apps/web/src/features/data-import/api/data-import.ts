import { useMutation, useQuery } from '@tanstack/react-query';
import { dataImport, dataImportPaths, dataImportStarted } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';
import { uploadRequest } from '#web/lib/upload-request';

/** How often an import is read again while its job runs. */
const pollMs = 1000;

/** GET /api/account/import/{id}/: one import, read again until it is done or failed. */
export function useDataImport(id: string | undefined) {
  return useQuery({
    queryKey: ['data-import', id],
    queryFn: () => apiRequest(dataImportPaths.one(id ?? ''), dataImport),
    enabled: id !== undefined,
    refetchInterval: (query) =>
      query.state.data?.status === 'done' || query.state.data?.status === 'failed' ? false : pollMs,
  });
}

/** POST /api/account/import/: sends the chosen zip or Bundle as a form, through the upload
 *  request the file screens use, which stays out of the first load. */
export function useStartDataImport() {
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return uploadRequest(dataImportPaths.root, dataImportStarted, { method: 'POST', body: form });
    },
  });
}
