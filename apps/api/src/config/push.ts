import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import webpush from 'web-push';
import { z } from 'zod';
import { ConfigError, optional } from './fields';

/** Web Push: the VAPID key pair that signs each push (docs/decisions/web-push.md). */
export const pushEnv = z.object({
  VAPID_PUBLIC_KEY: optional(
    z.string().regex(/^[\w-]{87}$/, 'VAPID_PUBLIC_KEY must be a P-256 public key, base64url.'),
  ),
  VAPID_PRIVATE_KEY: optional(
    z.string().regex(/^[\w-]{43}$/, 'VAPID_PRIVATE_KEY must be a P-256 private key, base64url.'),
  ),
  VAPID_SUBJECT: optional(
    z
      .string()
      .regex(/^(mailto:|https:\/\/)\S+$/, 'VAPID_SUBJECT must be a mailto: or https:// URL.'),
  ),
  PUSH_LOCAL_ENDPOINTS: optional(z.enum(['on', 'off'], 'PUSH_LOCAL_ENDPOINTS must be on or off.')),
});

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface PushSection {
  push: {
    /** Who the push services may contact about our pushes (the VAPID `sub` claim). */
    subject: string;
    /** Set keys; unset means a pair generated once into DATA_DIR/vapid.json. */
    keys: VapidKeys | undefined;
    /** Accepts http:// push endpoints on this machine: the local push service that tests and
     *  the browser journeys stand in for the browsers' push services with. */
    localEndpoints: boolean;
  };
}

export function parsePush(vars: z.infer<typeof pushEnv>, supportEmail: string): PushSection {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = vars;
  if ((publicKey === undefined) !== (privateKey === undefined)) {
    throw new ConfigError(
      'Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be set together.',
    );
  }
  return {
    push: {
      subject: vars.VAPID_SUBJECT ?? `mailto:${supportEmail}`,
      keys:
        publicKey === undefined || privateKey === undefined ? undefined : { publicKey, privateKey },
      localEndpoints: vars.PUSH_LOCAL_ENDPOINTS === 'on',
    },
  };
}

const vapidFileSchema = z.object({
  publicKey: z.string().regex(/^[\w-]{87}$/),
  privateKey: z.string().regex(/^[\w-]{43}$/),
});

/**
 * The VAPID key pair: the configured one, otherwise one generated on first start and kept in
 * DATA_DIR/vapid.json (owner-only), as the token secret is: browsers subscribed with the public
 * key, so a new pair would silence every subscription.
 */
export function resolveVapidKeys(dataDir: string, fromEnv: VapidKeys | undefined): VapidKeys {
  if (fromEnv !== undefined) return fromEnv;
  const file = path.join(dataDir, 'vapid.json');
  try {
    writeFileSync(file, JSON.stringify(webpush.generateVAPIDKeys()), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    // 'wx' fails when the file exists: a previous start generated it, so reuse it.
    if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    parsed = undefined;
  }
  const keys = vapidFileSchema.safeParse(parsed);
  if (!keys.success) {
    throw new ConfigError(
      `${file} is not a valid VAPID key file; delete it to generate a new pair (every device must turn notifications on again).`,
    );
  }
  return keys.data;
}
