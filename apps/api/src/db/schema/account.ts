import { sql } from 'drizzle-orm';
import {
  date,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { timestamptz } from './columns';
import { planNames } from '@dental/contracts/plans';
import { administrativeSexes } from '@dental/contracts/account';

export const customerLevel = pgEnum('customer_level', planNames);

/** A member keeps a patient record; staff accounts run the clinic console and hold no record
 *  (docs/decisions/clinic-staff.md). */
export const userRole = pgEnum('user_role', ['member', 'practitioner', 'clinic_admin']);

export const administrativeSex = pgEnum('administrative_sex', administrativeSexes);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** As the member typed it; uniqueness ignores case (index below). */
    email: text('email').notNull(),
    username: text('username').notNull(),
    /** E.164, or null when none was given. */
    phone: text('phone'),
    /** Null for a member who signed up with a social account and has set no password. */
    passwordHash: text('password_hash'),
    role: userRole('role').notNull().default('member'),
    customerLevel: customerLevel('customer_level').notNull().default('Silver'),
    points: integer('points').notNull().default(0),
    pointsExpiredAt: timestamptz('points_expired_at'),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    /** Set by DELETE /api/account/ (docs/product/accounts.md#deactivation): the row and its data
     *  stay, access ends. */
    deactivatedAt: timestamptz('deactivated_at'),
    /** When the member accepted the disclaimer before uploads; asked once
     *  (docs/decisions/upload-disclaimer.md). */
    uploadDisclaimerAcceptedAt: timestamptz('upload_disclaimer_accepted_at'),
    /** When the member proved they read mail at `email`; null until then. Reminders and notices
     *  go only to a confirmed address (docs/decisions/email-confirmation.md). */
    emailConfirmedAt: timestamptz('email_confirmed_at'),
    /** Health record details, each optional (docs/decisions/fhir-export.md): the data export's
     *  Patient carries them when set. */
    givenName: text('given_name'),
    familyName: text('family_name'),
    birthDate: date('birth_date', { mode: 'string' }),
    sex: administrativeSex('sex'),
  },
  (table) => [uniqueIndex('users_email_lower_key').on(sql`lower(${table.email})`)],
);

/**
 * One row per sign-in: the refresh family's id is the session id, which access tokens carry, so
 * a token whose session ended is refused (docs/decisions/session-timeouts.md).
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The sign-in: the absolute lifetime counts from here. */
    createdAt: timestamptz('created_at').notNull(),
    /** When the member last proved who they are (sign-in or password re-check). */
    authenticatedAt: timestamptz('authenticated_at').notNull(),
    /** Last API use, written at most once a minute; the idle timeout counts from here. */
    lastUsedAt: timestamptz('last_used_at').notNull(),
    /** Logout, refresh-token reuse, password reset, deactivation or a timeout. */
    endedAt: timestamptz('ended_at'),
    /** The browser and address of the sign-in, so the member can recognise the device. */
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (table) => [index('sessions_user_id_idx').on(table.userId)],
);

/** Opaque refresh tokens, stored only as SHA-256 hashes; one family per sign-in. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id')
      .notNull()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    /** Set when exchanged for a new pair; presenting it again is reuse. */
    usedAt: timestamptz('used_at'),
    revokedAt: timestamptz('revoked_at'),
  },
  (table) => [
    index('refresh_tokens_family_id_idx').on(table.familyId),
    index('refresh_tokens_user_id_idx').on(table.userId),
  ],
);

/** Single-use password reset keys, stored only as SHA-256 hashes. */
export const passwordResetKeys = pgTable(
  'password_reset_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
  },
  (table) => [index('password_reset_keys_user_id_idx').on(table.userId)],
);

/**
 * Single-use links that confirm an e-mail address: the one given at sign-up, or a new one the
 * member asked to change to (kept here, not on the account, until it is confirmed). Stored only
 * as SHA-256 hashes (docs/decisions/email-confirmation.md).
 */
export const emailConfirmations = pgTable(
  'email_confirmations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The address the link confirms. */
    email: text('email').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: timestamptz('created_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    /** Used, or replaced by a newer link or a confirmed address. */
    usedAt: timestamptz('used_at'),
  },
  (table) => [index('email_confirmations_user_id_idx').on(table.userId)],
);

export type UserRow = typeof users.$inferSelect;
export type EmailConfirmationRow = typeof emailConfirmations.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
export type PasswordResetKeyRow = typeof passwordResetKeys.$inferSelect;
