import { bigint, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { users } from './account';

/**
 * A member's TOTP authenticator (docs/decisions/second-factor.md). The secret is kept encrypted
 * with a key derived from TOKEN_SECRET; until `confirmed_at` is set (a first right code) it is an
 * enrolment in progress and does not count as a second factor.
 */
export const totpCredentials = pgTable('totp_credentials', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** AES-256-GCM: iv, tag and ciphertext, base64url, joined by dots. */
  secretCiphertext: text('secret_ciphertext').notNull(),
  createdAt: timestamptz('created_at').notNull(),
  confirmedAt: timestamptz('confirmed_at'),
  /** The 30-second step of the last accepted code: a code is accepted once (RFC 6238 §5.2). */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
});

/** Ten one-time recovery codes per confirmed authenticator, stored only as SHA-256 hashes. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (table) => [uniqueIndex('recovery_codes_user_id_code_hash_key').on(table.userId, table.codeHash)],
);

/** The `mfa_token` between a right password and the second step: 5 minutes, used once. */
export const mfaChallenges = pgTable(
  'mfa_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (table) => [index('mfa_challenges_user_id_idx').on(table.userId)],
);

export type TotpCredentialRow = typeof totpCredentials.$inferSelect;
