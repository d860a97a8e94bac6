import { hkdfSync, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ConfigError, optional } from './fields';

/** The one configured secret; every other key is derived from it. */
export const secretsEnv = z.object({
  TOKEN_SECRET: optional(
    z.string().min(32, 'TOKEN_SECRET must be at least 32 characters (256 bits of key).'),
  ),
});

/**
 * The key that signs file links, derived from the token secret (HKDF-SHA256, label
 * 'file-links'): one configured secret, two independent keys (docs/decisions/file-link-secret.md).
 */
export function fileLinkSecret(tokenSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', tokenSecret, '', 'file-links', 32));
}

/** The AES-256-GCM key of stored TOTP secrets, derived the same way with the label
 *  'totp-secrets' (docs/decisions/second-factor.md). */
export function totpSecretKey(tokenSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', tokenSecret, '', 'totp-secrets', 32));
}

/** The key that signs the tickets opening a live message stream, derived the same way with the
 *  label 'message-event-tickets' (docs/decisions/care-messages-live.md). */
export function messageEventTicketSecret(tokenSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', tokenSecret, '', 'message-event-tickets', 32));
}

const secretsFileSchema = z.object({ tokenSecret: z.string().min(32) });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The token signing secret: TOKEN_SECRET when given, otherwise one generated on first start and
 * kept in DATA_DIR/secrets.json (owner-only) so sessions survive a restart.
 */
export function resolveTokenSecret(dataDir: string, fromEnv: string | undefined): string {
  if (fromEnv !== undefined) return fromEnv;
  const file = path.join(dataDir, 'secrets.json');
  try {
    writeFileSync(file, JSON.stringify({ tokenSecret: randomBytes(32).toString('base64url') }), {
      flag: 'wx',
      mode: 0o600,
    });
  } catch (error) {
    // 'wx' fails when the file exists: a previous start generated it, so reuse it.
    if (!(error instanceof Error && 'code' in error && error.code === 'EEXIST')) throw error;
  }
  const parsed = secretsFileSchema.safeParse(parseJson(readFileSync(file, 'utf8')));
  if (!parsed.success) {
    throw new ConfigError(
      `${file} is not a valid secrets file; delete it to generate a new secret (every session ends).`,
    );
  }
  return parsed.data.tokenSecret;
}
