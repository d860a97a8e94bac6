import { useQuery } from '@tanstack/react-query';
import { receiptList, receiptPaths } from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';

/** GET /api/receipts/: read again after 3 minutes, before the PDF links (4 to 5) expire. */
export function useReceipts() {
  return useQuery({
    queryKey: ['receipts'],
    queryFn: () => apiRequest(receiptPaths.list, receiptList),
    staleTime: 3 * 60_000,
    refetchInterval: 3 * 60_000,
  });
}
