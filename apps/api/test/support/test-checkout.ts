import { expect } from 'vitest';
import type { TestApp } from '../build-test-app';

/** The full-page test-mode checkout of one kind of payment (plans or shop orders). */
export interface CheckoutPaths {
  checkout: string;
  testCheckoutPay: string;
  testCheckoutCancel: string;
}

/** Drives the built-in test-mode checkout as a browser does: redirect, page, form posts. `app`
 *  is a getter because test files build their app in beforeAll. */
export function testCheckout(app: () => TestApp, paths: CheckoutPaths) {
  const checkout = (paymentId: string) =>
    app().request('GET', `${paths.checkout}?payment_id=${paymentId}`);

  const postForm = (url: string, fields: Record<string, string>) =>
    app().request('POST', url, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });

  return {
    checkout,
    postForm,

    /** Opens the test-mode page the checkout redirects to and reads the token of its forms. */
    open: async (paymentId: string) => {
      const redirect = await checkout(paymentId);
      expect(redirect.statusCode).toBe(303);
      const page = await app().request('GET', String(redirect.headers.location));
      expect(page.statusCode).toBe(200);
      const token = /name="token" value="([^"]+)"/.exec(page.body)?.[1];
      if (token === undefined) throw new Error('the checkout page has no form token');
      return { page, token };
    },

    pay: (paymentId: string, token: string) =>
      postForm(paths.testCheckoutPay, { payment_id: paymentId, token }),
    cancel: (paymentId: string, token: string) =>
      postForm(paths.testCheckoutCancel, { payment_id: paymentId, token }),
  };
}
