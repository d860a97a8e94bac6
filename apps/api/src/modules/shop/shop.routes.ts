import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  centsPerPoint,
  newOrderRequest,
  newOrderResponse,
  order,
  orderList,
  orderParams,
  pointsAnswer,
  shopPaths,
} from '@dental/contracts';
import { testCheckoutPage } from '#api/adapters/payments/checkout-page';
import { checkoutRoutes } from '#api/adapters/payments/checkout-routes';
import { formatUsd } from '#api/lib/money';
import { security } from '#api/lib/openapi-security';
import { problems } from '#api/lib/problem-responses';
import { orderPage, type ShopService } from './shop.service';

export interface ShopRoutesOptions {
  shop: ShopService;
}

const tags = ['shop'];
const noHealthData = { none: 'orders and points from the shop, no health data' };

/** docs/product/shop.md#shop-calls: orders, their full-page checkout and the points ledger. */
export const shopRoutes: FastifyPluginAsyncZod<ShopRoutesOptions> = async (app, { shop }) => {
  const authenticated = { onRequest: app.authenticate };

  app.post(
    shopPaths.orders,
    {
      ...authenticated,
      config: { idempotent: true, audit: noHealthData },
      schema: {
        tags,
        security,
        summary: 'Order a product with points off; answers where the browser goes to pay',
        body: newOrderRequest,
        response: { 201: newOrderResponse, ...problems(400, 401, 404, 422) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await shop.placeOrder(request.user.id, request.body)),
  );

  app.get(
    shopPaths.orders,
    {
      ...authenticated,
      config: { audit: noHealthData },
      schema: {
        tags,
        security,
        summary: 'The member’s orders, newest first',
        response: { 200: orderList, ...problems(401) },
      },
    },
    (request) => shop.list(request.user.id),
  );

  app.get(
    `${shopPaths.orders}:id/`,
    {
      ...authenticated,
      config: { audit: noHealthData },
      schema: {
        tags,
        security,
        summary: 'One of the member’s orders',
        params: orderParams,
        response: { 200: order, ...problems(400, 401, 404) },
      },
    },
    (request) => shop.get(request.user.id, request.params.id),
  );

  app.get(
    shopPaths.points,
    {
      ...authenticated,
      config: { audit: noHealthData },
      schema: {
        tags,
        security,
        summary: 'The member’s points, when they expire, and every change to them',
        response: { 200: pointsAnswer, ...problems(401, 404) },
      },
    },
    (request) => shop.points(request.user.id),
  );

  await app.register(checkoutRoutes, {
    tags,
    paths: {
      checkout: shopPaths.checkout,
      testCheckout: shopPaths.testCheckout,
      pay: shopPaths.testCheckoutPay,
      cancel: shopPaths.testCheckoutCancel,
    },
    returnTo: (id, outcome) => `${orderPage(id)}?payment=${outcome}`,
    startAgain: { advice: 'Please place your order again.', href: '/orders', label: 'Your orders' },
    checkoutUrl: (id) => shop.checkoutUrl(id),
    testCheckoutPage: async (id) => {
      const placed = await shop.testCheckout(id);
      return testCheckoutPage({
        paymentId: placed.id,
        formToken: placed.formToken,
        lines: [
          ['Product', `${placed.productName} × ${String(placed.quantity)}`],
          ['Price', formatUsd(placed.subtotalCents)],
          [
            'Points',
            `${placed.pointsUsed.toLocaleString('en-US')} (−${formatUsd(placed.pointsUsed * centsPerPoint)})`,
          ],
          ['To pay', formatUsd(placed.amountCents)],
        ],
        payPath: shopPaths.testCheckoutPay,
        cancelPath: shopPaths.testCheckoutCancel,
      });
    },
    pay: (id, token) => shop.payTestCheckout(id, token),
    cancel: (id, token) => shop.cancelTestCheckout(id, token),
  });
};
