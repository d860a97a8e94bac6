import { z } from 'zod';

/** Notifications on this device through Web Push (docs/decisions/web-push.md). */
export const pushPaths = {
  /** GET: the server's VAPID public key, for PushManager.subscribe. */
  publicKey: '/api/push/public-key/',
  /** POST: this session's browser subscribes (the body is its PushSubscription's JSON). */
  subscriptions: '/api/push/subscriptions/',
  /** DELETE: the member's subscription ends (this device's or another of their devices'). */
  subscription: (id: string) => `/api/push/subscriptions/${id}/`,
} as const;

export const pushPublicKey = z.object({ public_key: z.string() });
export type PushPublicKey = z.infer<typeof pushPublicKey>;

/** The longest endpoint URL taken; the browsers' push services use well under 1,000 characters. */
export const pushEndpointMaxLength = 2048;

const base64url = (name: string, bytes: number) =>
  z
    .string(`${name} must be text.`)
    .regex(/^[\w-]+={0,2}$/, `${name} must be base64url.`)
    .refine(
      (text) => Math.floor((text.replace(/=+$/, '').length * 3) / 4) === bytes,
      `${name} must be ${bytes} bytes.`,
    );

/**
 * PushSubscription.toJSON() as a browser gives it: the push service's endpoint (https), the
 * browser's P-256 public key (65 bytes, uncompressed) and its 16-byte auth secret.
 */
export const pushSubscriptionRequest = z.object({
  endpoint: z
    .url({ error: 'The endpoint must be a URL.' })
    .max(
      pushEndpointMaxLength,
      `The endpoint must be at most ${pushEndpointMaxLength} characters.`,
    ),
  expirationTime: z.number().nullish(),
  keys: z.object(
    {
      p256dh: base64url('keys.p256dh', 65),
      auth: base64url('keys.auth', 16),
    },
    'keys must hold p256dh and auth.',
  ),
});
export type PushSubscriptionRequest = z.infer<typeof pushSubscriptionRequest>;

export const pushSubscription = z.object({
  id: z.uuid(),
  created_at: z.iso.datetime({ offset: true }),
});
export type PushSubscriptionResponse = z.infer<typeof pushSubscription>;

export const pushEndpointNotHttpsMessage = 'The push endpoint must be an https:// URL.';
export const pushSubscriptionNotFoundMessage = 'No such notification subscription.';

/** What a push carries: no health details, only where to look (docs/decisions/web-push.md). */
export const pushPayload = z.object({ title: z.string(), body: z.string(), url: z.string() });
export type PushPayload = z.infer<typeof pushPayload>;
