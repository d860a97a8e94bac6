import { z } from 'zod';
import { planName } from './plans';
import { singleLineText } from './text';

/** docs/product/shop.md#shop-calls: orders paid with a card and points, and the points ledger. */
export const shopPaths = {
  orders: '/api/orders/',
  /** GET: the member's points, their expiry and the ledger of every change. */
  points: '/api/points/',
  /** Reached by full-page navigation: `?payment_id={order id}`. */
  checkout: '/api/orders/checkout',
  /** The built-in test-mode checkout (no Stripe configured). */
  testCheckout: '/api/orders/test-checkout',
  testCheckoutPay: '/api/orders/test-checkout/pay',
  testCheckoutCancel: '/api/orders/test-checkout/cancel',
} as const;

export function orderPath(id: string): string {
  return `${shopPaths.orders}${encodeURIComponent(id)}/`;
}

/** 100 points = $1: one point takes one cent off (docs/decisions/points-shop.md). */
export const centsPerPoint = 1;
/** Points pay at most half of an order's price. */
export function maxPointsFor(subtotalCents: number): number {
  return Math.floor(subtotalCents / 2 / centsPerPoint);
}

/** The most of one product in one order. */
export const maxQuantity = 10;

/** A product on a supplier page (content/suppliers/*.md front matter). */
export const product = z.object({
  id: z.string(),
  name: z.string(),
  /** US cents. */
  price_cents: z.number().int(),
});
export type Product = z.infer<typeof product>;

const field = (label: string, max: number) =>
  singleLineText(`Enter the ${label}.`)
    .trim()
    .min(1, `Enter the ${label}.`)
    .max(max, `Use at most ${String(max)} characters.`);

/** Where the parcel goes; the shop ships within the United States (prices are in US dollars). */
export const shippingAddress = z.object({
  name: field('name to ship to', 100),
  line1: field('street address', 200),
  line2: singleLineText().trim().max(200, 'Use at most 200 characters.').default(''),
  city: field('city', 100),
  state: field('state', 50),
  postal_code: singleLineText('Enter the ZIP code.')
    .trim()
    .regex(/^\d{5}(-\d{4})?$/, 'Enter a ZIP code such as 94110 or 94110-1234.'),
});
export type ShippingAddress = z.infer<typeof shippingAddress>;

export const newOrderRequest = z.object({
  supplier_id: z.uuid('Choose a product from a supplier page.'),
  product_id: singleLineText('Choose a product.').min(1, 'Choose a product.').max(100),
  quantity: z
    .number(`Enter a quantity from 1 to ${String(maxQuantity)}.`)
    .int(`Enter a quantity from 1 to ${String(maxQuantity)}.`)
    .min(1, `Enter a quantity from 1 to ${String(maxQuantity)}.`)
    .max(maxQuantity, `Enter a quantity from 1 to ${String(maxQuantity)}.`),
  points: z
    .number('Enter the points to use, or 0.')
    .int('Enter a whole number of points.')
    .min(0, 'Enter the points to use, or 0.'),
  shipping: shippingAddress,
});
export type NewOrderRequest = z.input<typeof newOrderRequest>;

export const newOrderResponse = z.object({
  id: z.uuid(),
  /** Where the browser goes to pay (a full-page navigation). */
  checkout_url: z.string(),
});
export type NewOrderResponse = z.infer<typeof newOrderResponse>;

export const orderStatuses = ['pending', 'paid', 'cancelled'] as const;
export type OrderStatus = (typeof orderStatuses)[number];

export const order = z.object({
  id: z.uuid(),
  supplier_id: z.uuid(),
  product_id: z.string(),
  product_name: z.string(),
  quantity: z.number().int(),
  unit_price_cents: z.number().int(),
  /** Price × quantity, before points. */
  subtotal_cents: z.number().int(),
  points_used: z.number().int(),
  /** What the card is charged: the subtotal less one cent per point. */
  amount_cents: z.number().int(),
  currency: z.literal('usd'),
  status: z.enum(orderStatuses),
  shipping: shippingAddress,
  created_at: z.iso.datetime({ offset: true }),
  paid_at: z.iso.datetime({ offset: true }).nullable(),
  /** While pending: where the browser goes to pay; null once paid or cancelled. */
  checkout_url: z.string().nullable(),
});
export type Order = z.infer<typeof order>;

export const orderList = z.array(order);

export const orderParams = z.object({ id: z.uuid('An order id is a UUID.') });

export const ledgerKinds = ['granted', 'spent', 'returned', 'expired'] as const;
export type LedgerKind = (typeof ledgerKinds)[number];

export const ledgerEntry = z.object({
  id: z.uuid(),
  kind: z.enum(ledgerKinds),
  /** The change: positive for granted and returned, negative for spent and expired. */
  points: z.number().int(),
  /** The member's points after this change. */
  balance: z.number().int(),
  /** The plan whose bonus was granted. */
  plan: planName.nullable(),
  order_id: z.uuid().nullable(),
  at: z.iso.datetime({ offset: true }),
});
export type LedgerEntry = z.infer<typeof ledgerEntry>;

export const pointsAnswer = z.object({
  points: z.number().int(),
  points_expired_at: z.iso.datetime({ offset: true }).nullable(),
  /** Newest first. */
  ledger: z.array(ledgerEntry),
});
export type PointsAnswer = z.infer<typeof pointsAnswer>;
