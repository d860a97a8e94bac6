import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { receiptList, receiptPaths, shopPaths, type Receipt } from '@dental/contracts';
import { users } from '#api/db/schema';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { membershipHelpers } from '#api-test/support/membership';
import { readPdf } from '#api-test/support/pdf-reader';
import { flosser, orderOf, shopHelpers } from '#api-test/support/shop';
import { testCheckout } from '#api-test/support/test-checkout';
import { receiptNotFoundMessage, receiptPdfPath } from './receipts.service';

/** Receipts of test-mode purchases (the Stripe ones: membership-stripe.int.test.ts). */
let t: TestApp;
let factory: ReturnType<typeof factories>;
let helpers: ReturnType<typeof membershipHelpers>;
const shop = shopHelpers(() => t);
const orderCheckout = testCheckout(() => t, {
  checkout: shopPaths.checkout,
  testCheckoutPay: shopPaths.testCheckoutPay,
  testCheckoutCancel: shopPaths.testCheckoutCancel,
});

beforeAll(async () => {
  t = await buildTestApp();
  factory = factories(t);
  helpers = membershipHelpers(t);
});
afterAll(async () => {
  await t.close();
});

type Member = Awaited<ReturnType<typeof factory.loggedInMember>>;

async function receiptsOf(member: Member): Promise<Receipt[]> {
  const res = await t.request('GET', receiptPaths.list, { token: member.tokens.access });
  expect(res.statusCode).toBe(200);
  return receiptList.parse(res.json()).results;
}

const download = (url: string, locale = 'en-US,en;q=0.9') =>
  t.request('GET', url, { headers: { 'accept-language': locale } });

/** Points the PDF link at another member's, or another receipt's, path, keeping its query. */
const repoint = (url: string, memberId: string, receiptId: string) =>
  url.replace(/^\/api\/receipts\/[^/]+\/[^/]+\//, `${receiptPdfPath}${memberId}/${receiptId}/`);

const numberPattern = () => new RegExp(`^DC-${String(t.clock.now().getUTCFullYear())}-\\d{6,}$`);

describe('GET /api/receipts/', () => {
  it('lists a test-mode purchase with its number, amount and test card', async () => {
    const member = await factory.loggedInMember();
    expect(await receiptsOf(member)).toEqual([]);
    const paymentId = await helpers.buy(member, 'Gold');
    const [receipt, ...others] = await receiptsOf(member);
    expect(others).toEqual([]);
    expect(receipt).toMatchObject({
      id: paymentId,
      kind: 'membership',
      description: 'Gold membership, 1 year',
      amount_cents: 2999,
      currency: 'USD',
      paid_at: t.clock.now().toISOString(),
      card_brand: 'test card',
      card_last4: '4242',
    });
    expect(receipt?.number).toMatch(numberPattern());
    expect(receipt?.number).toBe((await helpers.payment(paymentId))?.receiptNumber);
    expect(receipt?.download_url).toMatch(
      new RegExp(
        `^/api/receipts/${member.id}/${paymentId}/pdf/\\?exp=\\d+&type=application%2Fpdf&disp=attachment&name=Receipt%20DC-`,
      ),
    );
  });

  it('has no receipt for a pending or a cancelled payment', async () => {
    const member = await factory.loggedInMember();
    await helpers.choose(member, 'Gold');
    const cancelled = await helpers.choose(member, 'Platinum');
    const { token } = await helpers.openTestCheckout(cancelled);
    expect((await helpers.cancel(cancelled, token)).statusCode).toBe(303);
    expect(await helpers.payment(cancelled)).toMatchObject({
      status: 'cancelled',
      receiptNumber: null,
    });
    expect(await receiptsOf(member)).toEqual([]);
  });

  it('lists a superseded payment too, newest first: its money was taken', async () => {
    const member = await factory.loggedInMember();
    const gold = await helpers.choose(member, 'Gold');
    const goldForm = await helpers.openTestCheckout(gold);
    const platinum = await helpers.buy(member, 'Platinum');
    t.clock.advance(60_000);
    expect((await helpers.pay(gold, goldForm.token)).statusCode).toBe(303);
    expect(await helpers.payment(gold)).toMatchObject({ status: 'superseded' });
    const receipts = await receiptsOf(member);
    expect(receipts.map((receipt) => [receipt.id, receipt.description])).toEqual([
      [gold, 'Gold membership, 1 year'],
      [platinum, 'Platinum membership, 1 year'],
    ]);
    expect(receipts[0]?.number).not.toBe(receipts[1]?.number);
  });

  it('gives two payments completing at once distinct numbers', async () => {
    const [ann, bob] = await Promise.all([factory.loggedInMember(), factory.loggedInMember()]);
    const forms = await Promise.all(
      [ann, bob].map(async (member) => {
        const id = await helpers.choose(member, 'Platinum');
        return { id, token: (await helpers.openTestCheckout(id)).token };
      }),
    );
    const paid = await Promise.all(forms.map(({ id, token }) => helpers.pay(id, token)));
    expect(paid.map((res) => res.statusCode)).toEqual([303, 303]);
    const numbers = await Promise.all(
      forms.map(async ({ id }) => (await helpers.payment(id))?.receiptNumber),
    );
    expect(numbers[0]).toMatch(numberPattern());
    expect(numbers[1]).toMatch(numberPattern());
    expect(numbers[0]).not.toBe(numbers[1]);
  });

  it('pads the running number to six digits and never cuts a seventh', async () => {
    const member = await factory.loggedInMember();
    await t.db.execute(sql`select setval('receipt_numbers', 999998)`);
    const first = await helpers.buy(member, 'Gold');
    const second = await helpers.buy(member, 'Platinum');
    const year = String(t.clock.now().getUTCFullYear());
    expect((await helpers.payment(first))?.receiptNumber).toBe(`DC-${year}-999999`);
    expect((await helpers.payment(second))?.receiptNumber).toBe(`DC-${year}-1000000`);
  });

  it('shows a member only their own receipts, and needs a login', async () => {
    const ann = await factory.loggedInMember();
    const bob = await factory.loggedInMember();
    await helpers.buy(ann, 'Gold');
    expect(await receiptsOf(bob)).toEqual([]);
    expect((await t.request('GET', receiptPaths.list)).statusCode).toBe(401);
  });
});

describe('the receipt PDF', () => {
  it('reads back as a tagged PDF with the number, amount, card and the member', async () => {
    const member = await factory.loggedInMember();
    await helpers.buy(member, 'Gold');
    const [receipt] = await receiptsOf(member);
    if (receipt === undefined) throw new Error('no receipt');
    const res = await download(receipt.download_url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Receipt ${receipt.number}.pdf"; filename*=UTF-8''Receipt%20${receipt.number}.pdf`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    const pdf = await readPdf(res.rawPayload);
    expect(pdf.title).toBe(`Receipt ${receipt.number}`);
    expect(pdf.language).toBe('en');
    expect(pdf.marked).toBe(true);
    expect(pdf.pages).toBe(1);
    expect(pdf.size).toEqual([612, 792]);
    const text = pdf.text.join(' ');
    for (const expected of [
      t.config.companyName,
      'Receipt',
      `Receipt number: ${receipt.number}`,
      'Item: Gold membership, 1 year',
      'Amount paid: $29.99 USD',
      'Payment method: Test card •••• 4242',
      `Username: ${member.username}`,
      `E-mail: ${member.email}`,
      'All membership sales are final, with no cancellations or refunds.',
    ]) {
      expect(text).toContain(expected);
    }
    expect(pdf.structure[0]?.map((node) => node.role).slice(0, 3)).toEqual([
      'Document',
      'H1',
      'H2',
    ]);
  });

  it('prints on A4 for a member whose browser asks for British English', async () => {
    const member = await factory.loggedInMember();
    await helpers.buy(member, 'Platinum');
    const [receipt] = await receiptsOf(member);
    const res = await download(receipt?.download_url ?? '', 'en-GB,en;q=0.8');
    const pdf = await readPdf(res.rawPayload);
    expect(pdf.size.map(Math.round)).toEqual([595, 842]);
    const paid = t.clock.now();
    const day = paid.toLocaleDateString('en-GB', { dateStyle: 'long', timeZone: 'UTC' });
    expect(pdf.text.join(' ')).toContain(`Date paid: ${day}`);
  });

  it('answers 404 for a link made out to another member, 403 for an altered one', async () => {
    const ann = await factory.loggedInMember();
    const bob = await factory.loggedInMember();
    const annsPayment = await helpers.buy(ann, 'Gold');
    const bobsPayment = await helpers.buy(bob, 'Gold');
    const [bobsReceipt] = await receiptsOf(bob);
    // A genuine link, made out to Bob, naming Ann's receipt: as a list never would.
    const signed = t.services.links.signAt(receiptPdfPath, {
      key: `${bob.id}/${annsPayment}/pdf/`,
      contentType: 'application/pdf',
      disposition: 'attachment',
      fileName: 'Receipt.pdf',
    });
    const res = await download(signed);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ detail: receiptNotFoundMessage });
    // Bob's own link pointed at Ann's receipt no longer verifies.
    const altered = repoint(bobsReceipt?.download_url ?? '', ann.id, annsPayment);
    expect((await download(altered)).statusCode).toBe(403);
    expect((await download(repoint(altered, bob.id, bobsPayment))).statusCode).toBe(200);
  });

  it('stops when the link expires or the account is deactivated', async () => {
    const member = await factory.loggedInMember();
    await helpers.buy(member, 'Gold');
    const [receipt] = await receiptsOf(member);
    const url = receipt?.download_url ?? '';
    expect((await download(url)).statusCode).toBe(200);
    await t.db.update(users).set({ deactivatedAt: t.clock.now() }).where(eq(users.id, member.id));
    expect((await download(url)).statusCode).toBe(404);
    t.clock.advance(6 * 60_000);
    expect((await download(url)).statusCode).toBe(403);
  });
});

describe('receipts of shop orders', () => {
  /** Two flossers with 500 points off, ordered in test mode and paid: its id. */
  async function paidOrder(member: Member): Promise<string> {
    const id = await shop.placed(member.tokens.access, orderOf(flosser, 500, 2));
    const { token } = await orderCheckout.open(id);
    expect((await orderCheckout.pay(id, token)).statusCode).toBe(303);
    return id;
  }

  it('lists a paid order with its number, the amount after points and the test card', async () => {
    const member = await factory.loggedInMember();
    const id = await paidOrder(member);
    const [receipt, ...others] = await receiptsOf(member);
    expect(others).toEqual([]);
    expect(receipt).toMatchObject({
      id,
      kind: 'order',
      description: '2 × Cordless water flosser, 500 points used',
      amount_cents: 2 * flosser.priceCents - 500,
      currency: 'USD',
      paid_at: t.clock.now().toISOString(),
      card_brand: 'test card',
      card_last4: '4242',
    });
    expect(receipt?.number).toMatch(numberPattern());
    expect(receipt?.number).toBe((await shop.ordersOf(member.id))[0]?.receiptNumber);
  });

  it('numbers orders and membership payments from one sequence, newest first', async () => {
    const member = await factory.loggedInMember();
    const payment = await helpers.buy(member, 'Gold');
    t.clock.advance(60_000);
    const order = await paidOrder(member);
    const receipts = await receiptsOf(member);
    expect(receipts.map((receipt) => [receipt.id, receipt.kind])).toEqual([
      [order, 'order'],
      [payment, 'membership'],
    ]);
    expect(receipts[0]?.number).not.toBe(receipts[1]?.number);
  });

  it('has no receipt for a pending or a cancelled order', async () => {
    const member = await factory.loggedInMember();
    await shop.placed(member.tokens.access, orderOf(flosser, 100));
    const cancelled = await shop.placed(member.tokens.access, orderOf(flosser, 100));
    const { token } = await orderCheckout.open(cancelled);
    expect((await orderCheckout.cancel(cancelled, token)).statusCode).toBe(303);
    expect((await shop.ordersOf(member.id)).map((row) => row.receiptNumber)).toEqual([null, null]);
    expect(await receiptsOf(member)).toEqual([]);
  });

  it('reads back as a PDF with the number, the item, the amount and the card', async () => {
    const member = await factory.loggedInMember();
    await paidOrder(member);
    const [receipt] = await receiptsOf(member);
    const res = await download(receipt?.download_url ?? '');
    expect(res.statusCode).toBe(200);
    const pdf = await readPdf(res.rawPayload);
    expect(pdf.title).toBe(`Receipt ${receipt?.number ?? ''}`);
    const text = pdf.text.join(' ');
    for (const expected of [
      `Receipt number: ${receipt?.number ?? ''}`,
      'Item: 2 × Cordless water flosser, 500 points used',
      'Amount paid: $114.98 USD',
      'Payment method: Test card •••• 4242',
      `Username: ${member.username}`,
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('membership sales');
  });

  it('is not shown to another member, nor opened by a link made out to them', async () => {
    const ann = await factory.loggedInMember();
    const bob = await factory.loggedInMember();
    const annsOrder = await paidOrder(ann);
    expect(await receiptsOf(bob)).toEqual([]);
    const signed = t.services.links.signAt(receiptPdfPath, {
      key: `${bob.id}/${annsOrder}/pdf/`,
      contentType: 'application/pdf',
      disposition: 'attachment',
      fileName: 'Receipt.pdf',
    });
    expect((await download(signed)).statusCode).toBe(404);
  });
});
