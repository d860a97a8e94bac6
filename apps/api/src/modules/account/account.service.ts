import {
  birthDateInFutureMessage,
  type Account,
  type LinkedSocialAccount,
  type PlanName,
  type SocialProvider,
  type UpdateAccountRequest,
} from '@dental/contracts';
import type { Clock } from '#api/clock';
import type { Database } from '#api/db/client';
import type { UserRow } from '#api/db/schema';
import { BadRequest, NotFound } from '#api/domain-errors';
import { toE164 } from '#api/lib/phone';
import type { AccountRepository, ProfileChanges, SocialAccountLink } from './account.repository';

/** What the member stores against the plan's quota (answered by the files core). */
export interface StorageUsage {
  usedBytes: number;
  quotaBytes: number;
}

export interface StorageUsageSource {
  storageQuotaBytes(plan: PlanName): number;
}

/** Ends every session of the member in the deactivation's transaction `tx`: the sessions are the
 *  auth module's (wired in services.ts). */
export type EndAllSessions = (tx: Database, userId: string, now: Date) => Promise<void>;

/** Rows never leave a service: this is the account the API answers with
 *  (docs/product/accounts.md#account-calls). */
export function toAccount(
  row: UserRow,
  storage: StorageUsage,
  links: SocialAccountLink[],
  pendingEmail: string | null,
): Account {
  const linked = (provider: SocialProvider): LinkedSocialAccount => {
    const link = links.find((candidate) => candidate.provider === provider);
    return link === undefined ? null : { email: link.email, social_media_account: link.id };
  };
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    phone: row.phone,
    customer_level: row.customerLevel,
    points: row.points,
    points_expired_at: row.pointsExpiredAt?.toISOString() ?? null,
    google_account: linked('google'),
    apple_account: linked('apple'),
    facebook_account: linked('facebook'),
    storage_used_bytes: storage.usedBytes,
    storage_quota_bytes: storage.quotaBytes,
    upload_disclaimer_accepted_at: row.uploadDisclaimerAcceptedAt?.toISOString() ?? null,
    role: row.role,
    email_confirmed: row.emailConfirmedAt !== null,
    pending_email: pendingEmail,
    given_name: row.givenName,
    family_name: row.familyName,
    birth_date: row.birthDate,
    sex: row.sex,
  };
}

/** The member's profile and its deactivation (docs/product/accounts.md). */
export class AccountService {
  constructor(
    private readonly repository: AccountRepository,
    private readonly clock: Clock,
    private readonly storage: StorageUsageSource,
    private readonly endAllSessions: EndAllSessions,
  ) {}

  async get(userId: string): Promise<Account> {
    let view = await this.repository.findAccountView(userId);
    if (view === undefined) throw accountNotFound();
    const now = this.clock.now();
    const expiresAt = view.user.pointsExpiredAt;
    // Points past their expiry are expired, with their ledger row, before the Profile shows them
    // (docs/decisions/points-shop.md); the write happens once a year at most.
    if (view.user.points > 0 && expiresAt !== null && expiresAt <= now) {
      await this.repository.expirePoints(userId, now);
      view = (await this.repository.findAccountView(userId)) ?? view;
    }
    const { user, storedBytes, links, pendingEmail } = view;
    const quotaBytes = this.storage.storageQuotaBytes(user.customerLevel);
    return toAccount(user, { usedBytes: storedBytes, quotaBytes }, links, pendingEmail);
  }

  /** Only the name, phone and health record details change; the schema has already dropped
   *  every other field. */
  async update(userId: string, request: UpdateAccountRequest): Promise<Account> {
    const changes: ProfileChanges = {};
    if (request.username !== undefined) changes.username = request.username;
    if (request.phone !== undefined) changes.phone = toE164(request.phone);
    if (request.given_name !== undefined) changes.givenName = request.given_name;
    if (request.family_name !== undefined) changes.familyName = request.family_name;
    if (request.sex !== undefined) changes.sex = request.sex;
    if (request.birth_date !== undefined) {
      // The member's time zone is not known here: today is the date where it is latest (UTC+14),
      // so that a birth today is accepted everywhere.
      const today = new Date(this.clock.now().getTime() + 14 * 3600_000).toISOString().slice(0, 10);
      if (request.birth_date !== null && request.birth_date > today) {
        throw new BadRequest(birthDateInFutureMessage, { birth_date: [birthDateInFutureMessage] });
      }
      changes.birthDate = request.birth_date;
    }
    const row =
      Object.keys(changes).length === 0
        ? await this.requireUser(userId)
        : await this.repository.updateProfile(userId, changes, this.clock.now());
    if (row === undefined) throw accountNotFound();
    // Read as GET reads it, so the answer carries the pending address too.
    return this.get(row.id);
  }

  /** Records the acceptance of the upload disclaimer; the first acceptance's time is kept. */
  async acceptUploadDisclaimer(userId: string): Promise<Account> {
    const row = await this.repository.acceptUploadDisclaimer(userId, this.clock.now());
    if (row === undefined) throw accountNotFound();
    // Read as GET reads it, so the answer carries the pending address too.
    return this.get(row.id);
  }

  /** docs/product/accounts.md#deactivation: access ends at once (every session revoked) and the
   *  data is kept. */
  async deactivate(userId: string): Promise<void> {
    const now = this.clock.now();
    await this.repository.transaction(async (repository, tx) => {
      await repository.deactivateUser(userId, now);
      await this.endAllSessions(tx, userId, now);
    });
  }

  private async requireUser(userId: string): Promise<UserRow> {
    const row = await this.repository.findUserById(userId);
    if (row === undefined) throw accountNotFound();
    return row;
  }
}

function accountNotFound(): NotFound {
  return new NotFound('This account no longer exists.');
}
