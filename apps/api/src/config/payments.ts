import { z } from 'zod';
import { ConfigError, optional, portNumber } from './fields';

/** Stripe Checkout, or the built-in test-mode checkout. */
export const paymentsEnv = z.object({
  PAYMENTS: optional(z.enum(['test'], 'PAYMENTS must be test (or unset).')),
  STRIPE_SECRET_KEY: optional(z.string()),
  STRIPE_WEBHOOK_SECRET: optional(z.string()),
  STRIPE_API_HOST: optional(z.string()),
  STRIPE_API_PORT: optional(portNumber('STRIPE_API_PORT', 1)),
  STRIPE_API_PROTOCOL: optional(
    z.enum(['http', 'https'], 'STRIPE_API_PROTOCOL must be http or https.'),
  ),
});

export interface PaymentsSection {
  /** Unset means the built-in test-mode checkout (docs/decisions/membership-checkout.md), allowed
   *  on a public address only with PAYMENTS=test (docs/decisions/payments-on-public-servers.md). */
  stripe: StripeSettings | undefined;
}

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another API server (tests use a local one); unset means Stripe's. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

/** The test-mode checkout applies paid plans without payment, so a server at `publicUrl` runs it
 *  only on a loopback address or when PAYMENTS=test asks for it. */
export function parsePayments(
  vars: z.infer<typeof paymentsEnv>,
  publicUrl: string,
): PaymentsSection {
  const stripe = parseStripe(vars);
  if (stripe === undefined && vars.PAYMENTS !== 'test' && !isLoopbackUrl(publicUrl)) {
    throw new ConfigError(
      `Invalid configuration:\n  No payment provider is configured, and the test-mode checkout ` +
        `applies paid plans without payment; it runs only on a local address, not at ${publicUrl}. ` +
        'Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET, or PAYMENTS=test for a test deployment ' +
        '(docs/decisions/payments-on-public-servers.md).',
    );
  }
  return { stripe };
}

/** localhost (and its subdomains), 127.0.0.0/8 and ::1: reachable from this machine only. */
function isLoopbackUrl(url: string): boolean {
  const { hostname } = new URL(url);
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127(\.\d{1,3}){3}$/.test(hostname) ||
    hostname === '[::1]'
  );
}

/** Stripe when its secret key and webhook secret are both set; one without the other is an error. */
function parseStripe(vars: z.infer<typeof paymentsEnv>): StripeSettings | undefined {
  const { STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret } = vars;
  if (secretKey === undefined && webhookSecret === undefined) return undefined;
  if (secretKey === undefined || webhookSecret === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together.',
    );
  }
  return {
    secretKey,
    webhookSecret,
    ...(vars.STRIPE_API_HOST === undefined ? {} : { host: vars.STRIPE_API_HOST }),
    ...(vars.STRIPE_API_PORT === undefined ? {} : { port: vars.STRIPE_API_PORT }),
    ...(vars.STRIPE_API_PROTOCOL === undefined ? {} : { protocol: vars.STRIPE_API_PROTOCOL }),
  };
}
