import { useMutation, useQuery } from '@tanstack/react-query';
import {
  newOrderResponse,
  order,
  orderList,
  orderPath,
  pointsAnswer,
  shopPaths,
  type NewOrderRequest,
} from '@dental/contracts';
import { apiRequest } from '#web/lib/api-client';

/** GET /api/points/: the member's points, their expiry and the ledger (docs/product/shop.md). */
export function usePoints() {
  return useQuery({
    queryKey: ['points'],
    queryFn: () => apiRequest(shopPaths.points, pointsAnswer),
  });
}

export function useOrders() {
  return useQuery({
    queryKey: ['orders'],
    queryFn: () => apiRequest(shopPaths.orders, orderList),
  });
}

export function useOrder(id: string) {
  return useQuery({
    queryKey: ['orders', id],
    queryFn: () => apiRequest(orderPath(id), order),
  });
}

/** Places the order; the browser then opens its checkout (docs/product/shop.md#ordering). */
export function usePlaceOrder() {
  return useMutation({
    mutationFn: (request: NewOrderRequest) =>
      apiRequest(shopPaths.orders, newOrderResponse, { method: 'POST', body: request }),
  });
}
