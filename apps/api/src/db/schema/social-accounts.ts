import { pgEnum, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { socialProviders } from '@dental/contracts/account';
import { users } from './account';
import { timestamptz } from './columns';

export const socialProviderEnum = pgEnum('social_provider', socialProviders);

/**
 * Google, Apple and Facebook accounts a member signs in with (docs/decisions/social-sign-in.md):
 * one provider account belongs to one member, and a member links at most one per provider.
 */
export const socialAccounts = pgTable(
  'social_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: socialProviderEnum('provider').notNull(),
    /** The provider's stable id of the person (`sub`, or Facebook's app-scoped `id`). */
    subject: text('subject').notNull(),
    /** The e-mail the provider reported when it was linked, shown on the Profile. */
    email: text('email'),
    linkedAt: timestamptz('linked_at').notNull(),
  },
  (table) => [
    unique('social_accounts_provider_subject_key').on(table.provider, table.subject),
    unique('social_accounts_user_id_provider_key').on(table.userId, table.provider),
  ],
);

export type SocialAccountRow = typeof socialAccounts.$inferSelect;
