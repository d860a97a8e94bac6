import { eq } from 'drizzle-orm';
import {
  newOrderResponse,
  order,
  orderList,
  orderPath,
  pointsAnswer,
  shopPaths,
  type NewOrderRequest,
} from '@dental/contracts';
import { shopOrders, users } from '#api/db/schema';
import { supplierIdOf } from '#api/modules/content/content-loader.service';
import type { TestApp } from '../build-test-app';

/** The water flosser page sells a $59.99 flosser (up to 2,999 points off) and $14.99 tips. */
export const flosser = {
  supplier_id: supplierIdOf('water-flossers'),
  product_id: 'cordless-water-flosser',
  priceCents: 5999,
};
/** A $2.99 toothbrush: at most 149 points off. */
export const toothbrush = {
  supplier_id: supplierIdOf('manual-toothbrushes'),
  product_id: 'compact-head-toothbrush',
  priceCents: 299,
};

export const shipping = {
  name: 'Ana Member',
  line1: '1 Market Street',
  city: 'San Francisco',
  state: 'CA',
  postal_code: '94105',
};

/** An order request for one of `product` with `points` off. */
export const orderOf = (
  product: { supplier_id: string; product_id: string },
  points: number,
  quantity = 1,
): NewOrderRequest => ({
  supplier_id: product.supplier_id,
  product_id: product.product_id,
  quantity,
  points,
  shipping,
});

/** Requests and reads shared by the shop integration tests. */
export function shopHelpers(app: () => TestApp) {
  return {
    placeOrder: (access: string, body: unknown) =>
      app().request('POST', shopPaths.orders, { token: access, body }),

    async placed(access: string, body: unknown): Promise<string> {
      const res = await app().request('POST', shopPaths.orders, { token: access, body });
      if (res.statusCode !== 201) throw new Error(`order refused: ${res.body}`);
      return newOrderResponse.parse(res.json()).id;
    },

    async order(access: string, id: string) {
      const res = await app().request('GET', orderPath(id), { token: access });
      return order.parse(res.json());
    },

    async orders(access: string) {
      return orderList.parse(
        (await app().request('GET', shopPaths.orders, { token: access })).json(),
      );
    },

    async points(access: string) {
      const res = await app().request('GET', shopPaths.points, { token: access });
      return pointsAnswer.parse(res.json());
    },

    /** Points straight from the database (no expiry applied on the way). */
    async storedPoints(userId: string): Promise<number | undefined> {
      const [row] = await app()
        .db.select({ points: users.points })
        .from(users)
        .where(eq(users.id, userId));
      return row?.points;
    },

    async ordersOf(userId: string) {
      return app().db.select().from(shopOrders).where(eq(shopOrders.userId, userId));
    },
  };
}
