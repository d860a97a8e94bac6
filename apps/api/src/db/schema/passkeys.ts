import { bigint, index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { users } from './account';

/** A member's WebAuthn credentials (docs/decisions/passkeys.md): only public keys are kept. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The authenticator's credential id (base64url); a sign-in names the passkey by it. */
    credentialId: text('credential_id').notNull().unique(),
    /** The COSE public key (base64url). */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter; a signature that does not raise it is a clone's. */
    counter: bigint('counter', { mode: 'number' }).notNull(),
    transports: text('transports').array().notNull(),
    name: text('name').notNull(),
    createdAt: timestamptz('created_at').notNull(),
    lastUsedAt: timestamptz('last_used_at'),
  },
  (table) => [index('passkeys_user_id_idx').on(table.userId)],
);

/**
 * Outstanding WebAuthn challenges: each is claimed (deleted) by the one response that answers
 * it, and refused after `expires_at`. `user_id` is the member registering or answering the second
 * step of a login, or null for a usernameless sign-in.
 */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: text('challenge').primaryKey(),
    purpose: text('purpose').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [index('webauthn_challenges_expires_at_idx').on(table.expiresAt)],
);

export type PasskeyRow = typeof passkeys.$inferSelect;
