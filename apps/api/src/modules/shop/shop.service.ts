import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import {
  centsPerPoint,
  endOfYear,
  maxPointsFor,
  shopPaths,
  type newOrderRequest,
  type NewOrderResponse,
  type Order,
  type PointsAnswer,
} from '@dental/contracts';
import {
  paymentCurrency,
  type PaymentCard,
  type PaymentEvent,
  type PaymentProvider,
} from '#api/adapters/payments/payment-provider';
import type { Clock } from '#api/clock';
import { NotFound, UnprocessableEntity } from '#api/domain-errors';
import type { ShopOrderRow } from '#api/db/schema';
import type { ErrorLogger } from '#api/logger';
import type { ShopRepository } from './shop.repository';

/** A checkout can be paid this long after the order (the test-mode page and Stripe's session). */
export const orderCheckoutLifetimeMs = 60 * 60 * 1000;
/** A pending order is given up this long after it was placed: its checkout has expired, and a
 *  provider event about it had time to arrive. */
export const pendingOrderLimitMs = orderCheckoutLifetimeMs + 15 * 60 * 1000;

/** The web app's order page, where a paid or cancelled checkout sends the browser back. */
export const orderPage = (id: string) => `/orders/${id}`;

export const orderNotFoundMessage = 'This order does not exist.';
const checkoutNotFound = () => new NotFound('This checkout has expired or does not exist.');

const sameToken = (expected: string, given: string) => {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
};

function orderOf(row: ShopOrderRow): Order {
  return {
    id: row.id,
    supplier_id: row.supplierId,
    product_id: row.productId,
    product_name: row.productName,
    quantity: row.quantity,
    unit_price_cents: row.unitPriceCents,
    subtotal_cents: row.subtotalCents,
    points_used: row.pointsUsed,
    amount_cents: row.amountCents,
    currency: row.currency,
    status: row.status,
    shipping: row.shipping,
    created_at: row.createdAt.toISOString(),
    paid_at: row.paidAt?.toISOString() ?? null,
    checkout_url:
      row.status === 'pending' && row.checkoutUrl !== null
        ? `${shopPaths.checkout}?payment_id=${row.id}`
        : null,
  };
}

/**
 * Orders from supplier pages paid by card with points off (docs/decisions/points-shop.md):
 * points are taken atomically when the order is placed, kept when the payment succeeds and
 * given back when it fails, expires or is cancelled.
 */
export class ShopService {
  constructor(
    private readonly repository: ShopRepository,
    private readonly provider: PaymentProvider,
    private readonly clock: Clock,
    private readonly log: ErrorLogger,
  ) {}

  async placeOrder(
    userId: string,
    request: z.output<typeof newOrderRequest>,
  ): Promise<NewOrderResponse> {
    const product = await this.repository.product(request.supplier_id, request.product_id);
    if (product === undefined) {
      throw new UnprocessableEntity('This product is not sold on that supplier page.', {
        product_id: ['Choose a product from the supplier page.'],
      });
    }
    const subtotalCents = product.priceCents * request.quantity;
    const maxPoints = maxPointsFor(subtotalCents);
    if (request.points > maxPoints) {
      throw new UnprocessableEntity('Points pay at most half of an order’s price.', {
        points: [`Use at most ${maxPoints.toLocaleString('en-US')} points on this order.`],
      });
    }
    const email = await this.repository.activeMemberEmail(userId);
    if (email === undefined) throw new NotFound('This account no longer exists.');
    await this.releaseStale(userId);
    const now = this.clock.now();
    const id = randomUUID();
    const amountCents = subtotalCents - request.points * centsPerPoint;
    await this.repository.transaction(async (tx) => {
      await tx.points.expireDue(userId, now);
      await tx.insertOrder({
        id,
        userId,
        supplierId: request.supplier_id,
        productId: product.id,
        productName: product.name,
        unitPriceCents: product.priceCents,
        quantity: request.quantity,
        subtotalCents,
        pointsUsed: request.points,
        amountCents,
        currency: paymentCurrency,
        shipping: request.shipping,
        provider: this.provider.kind,
        formToken: randomBytes(32).toString('base64url'),
        createdAt: now,
      });
      if (request.points === 0 || (await tx.points.spend(userId, request.points, id, now))) return;
      // Nothing of the order stays: the transaction rolls back.
      throw await this.notEnoughPoints(tx, userId, now);
    });
    try {
      const session = await this.provider.createCheckout({
        paymentId: id,
        purpose: 'order',
        description: `${product.name} × ${String(request.quantity)}`,
        amountCents,
        customerEmail: email,
        returnPath: orderPage(id),
        testCheckoutPath: shopPaths.testCheckout,
        expiresAt: new Date(now.getTime() + orderCheckoutLifetimeMs),
      });
      await this.repository.setCheckout(id, session.sessionId, session.url);
    } catch (error) {
      // No checkout to pay: the points go back at once.
      await this.repository.transaction((tx) => this.cancel(tx, id));
      throw error;
    }
    return { id, checkout_url: `${shopPaths.checkout}?payment_id=${id}` };
  }

  private async notEnoughPoints(tx: ShopRepository, userId: string, now: Date) {
    const balance = await tx.points.balance(userId);
    const unexpired = balance?.expiresAt != null && balance.expiresAt > now;
    const points = unexpired ? balance.points : 0;
    return new UnprocessableEntity('You do not have that many points.', {
      points: [`You have ${points.toLocaleString('en-US')} points to use.`],
    });
  }

  async list(userId: string): Promise<Order[]> {
    await this.releaseStale(userId);
    return (await this.repository.listOwn(userId)).map(orderOf);
  }

  async get(userId: string, id: string): Promise<Order> {
    await this.releaseStale(userId);
    const row = await this.repository.findOwn(userId, id);
    if (row === undefined) throw new NotFound(orderNotFoundMessage);
    return orderOf(row);
  }

  /** The member's points after any that are due to expire have expired, and the ledger. */
  async points(userId: string): Promise<PointsAnswer> {
    await this.releaseStale(userId);
    const now = this.clock.now();
    await this.repository.transaction((tx) => tx.points.expireDue(userId, now));
    const balance = await this.repository.points.balance(userId);
    if (balance === undefined) throw new NotFound('This account no longer exists.');
    const ledger = await this.repository.points.ledger(userId);
    return {
      points: balance.points,
      points_expired_at: balance.expiresAt?.toISOString() ?? null,
      ledger: ledger.map((row) => ({
        id: row.id,
        kind: row.kind,
        points: row.points,
        balance: row.balance,
        plan: row.plan,
        order_id: row.orderId,
        at: row.at.toISOString(),
      })),
    };
  }

  /** Pending orders whose checkout can no longer be paid give their points back; done when the
   *  member looks, so no job has to run for it. */
  private async releaseStale(userId: string): Promise<void> {
    const before = new Date(this.clock.now().getTime() - pendingOrderLimitMs);
    for (const id of await this.repository.stalePending(userId, before)) {
      await this.repository.transaction((tx) => this.cancel(tx, id));
    }
  }

  /** A pending order whose checkout is still open; anything else is "not found". */
  private async openOrder(id: string): Promise<ShopOrderRow & { checkoutUrl: string }> {
    const order = await this.repository.find(id);
    const age =
      order === undefined ? Infinity : this.clock.now().getTime() - order.createdAt.getTime();
    if (order?.status !== 'pending' || order.checkoutUrl === null) throw checkoutNotFound();
    if (age > orderCheckoutLifetimeMs) throw checkoutNotFound();
    return { ...order, checkoutUrl: order.checkoutUrl };
  }

  async checkoutUrl(id: string): Promise<string> {
    return (await this.openOrder(id)).checkoutUrl;
  }

  async testCheckout(id: string): Promise<ShopOrderRow> {
    const order = await this.openOrder(id);
    if (order.provider !== 'test') throw checkoutNotFound();
    return order;
  }

  private async testCheckoutForm(id: string, token: string): Promise<void> {
    const order = await this.testCheckout(id);
    if (!sameToken(order.formToken, token)) throw checkoutNotFound();
  }

  /** Test-mode Pay: the same completion as a Stripe webhook. */
  async payTestCheckout(id: string, token: string): Promise<void> {
    await this.testCheckoutForm(id, token);
    const card = await this.provider.paidWith(null);
    await this.repository.transaction((tx) => this.complete(tx, id, card));
  }

  async cancelTestCheckout(id: string, token: string): Promise<void> {
    await this.testCheckoutForm(id, token);
    await this.repository.transaction((tx) => this.cancel(tx, id));
  }

  /** A verified provider event about an order's checkout (the membership webhook routes it
   *  here), processed once per event id. */
  async handlePaymentEvent(event: PaymentEvent): Promise<void> {
    const { paymentId, outcome } = event;
    // Asked before the transaction, so no lock waits on Stripe; a failure answers 500 before the
    // event is recorded, and Stripe delivers it again.
    const card = outcome === 'completed' ? await this.provider.paidWith(event) : null;
    await this.repository.transaction(async (tx) => {
      if (!(await tx.recordEvent(event.id, event.type, this.clock.now()))) return;
      if (paymentId === null || outcome === 'ignored') return;
      const order = await tx.lockOrder(paymentId);
      if (order === undefined || !this.matches(order, event)) return;
      if (outcome === 'completed') await this.complete(tx, paymentId, card);
      else await this.cancel(tx, paymentId);
    });
  }

  /** Whether the event is about this order's session, for its amount in its currency (an expiry
   *  needs only the session); a mismatch changes nothing and is logged. */
  private matches(order: ShopOrderRow, { id, outcome, session }: PaymentEvent): boolean {
    let mismatch: string | undefined;
    if (session?.id !== order.providerSessionId) mismatch = 'session';
    else if (outcome === 'completed' && session.amountCents !== order.amountCents) {
      mismatch = 'amount';
    } else if (outcome === 'completed' && session.currency !== order.currency) {
      mismatch = 'currency';
    }
    if (mismatch === undefined) return true;
    (this.log.warn ?? this.log.error).call(
      this.log,
      { eventId: id, orderId: order.id, mismatch },
      'payment event does not match the stored order; ignored',
    );
    return false;
  }

  /** Paid: the points taken at order time stay spent, and the order gets its receipt number
   *  and card. Only a pending order can be paid; a provider does not complete a checkout after
   *  it expired. */
  private async complete(tx: ShopRepository, id: string, card: PaymentCard | null): Promise<void> {
    const order = await tx.lockOrder(id);
    if (order === undefined) return;
    if (order.status !== 'pending') {
      if (order.status === 'cancelled') {
        this.log.error({ orderId: id }, 'payment completed for a cancelled order');
      }
      return;
    }
    await tx.markPaid(id, this.clock.now(), card);
  }

  /** Failed, expired or cancelled: the order's points go back, once. */
  private async cancel(tx: ShopRepository, id: string): Promise<void> {
    const order = await tx.lockOrder(id);
    if (order?.status !== 'pending') return;
    const now = this.clock.now();
    await tx.markCancelled(id, now);
    if (order.pointsUsed === 0) return;
    await tx.points.expireDue(order.userId, now);
    const expiredMeanwhile = endOfYear(order.createdAt) < now;
    await tx.points.giveBack(order.userId, order.pointsUsed, id, now, expiredMeanwhile);
  }
}
