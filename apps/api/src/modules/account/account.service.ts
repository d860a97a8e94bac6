import { parsePhoneNumberWithError } from 'libphonenumber-js';
import {
  endOfYear,
  plans,
  type Account,
  type LinkedSocialAccount,
  type PlanName,
  type RegisterRequest,
  type RegisterResponse,
  type SocialProvider,
  type UpdateAccountRequest,
} from '@dental/contracts';
import type { Clock } from '#api/clock';
import type { UserRow } from '#api/db/schema';
import { Conflict, NotFound } from '#api/domain-errors';
import type {
  AccountRepository,
  NewUser,
  ProfileChanges,
  SocialAccountLink,
} from './account.repository';
import { assertAcceptablePassword, type PasswordService } from './password.service';

export const emailTakenMessage =
  'An account with this e-mail address already exists. Please log in or use another address.';

/** Phones are stored in E.164 (the schema has already checked that the number is valid). */
function toE164(phone: string | null | undefined): string | null | undefined {
  if (phone === undefined || phone === null) return phone;
  return parsePhoneNumberWithError(phone).number;
}

/** What the member stores against the plan's quota (answered by the files core). */
export interface StorageUsage {
  usedBytes: number;
  quotaBytes: number;
}

export interface StorageUsageSource {
  storageUsage(userId: string): Promise<StorageUsage>;
  storageQuotaBytes(plan: PlanName): number;
}

/** Rows never leave a service: this is the account the API answers with
 *  (docs/product/accounts.md#account-calls). */
export function toAccount(
  row: UserRow,
  storage: StorageUsage,
  links: SocialAccountLink[],
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
  };
}

/** docs/product/accounts.md#deactivation: a deactivated account keeps its data but may do nothing
 *  until reactivated. */
export function isActiveMember(row: UserRow | undefined): row is UserRow {
  return row?.deactivatedAt === null;
}

/** Who made an authenticated call: the member and the session of the access token. */

/** Sign-up, the profile, deactivation and linked social accounts (docs/product/accounts.md). */
export class AccountService {
  constructor(
    private readonly repository: AccountRepository,
    private readonly passwords: PasswordService,
    private readonly clock: Clock,
    private readonly storage: StorageUsageSource,
  ) {}

  async register(request: RegisterRequest): Promise<RegisterResponse> {
    assertAcceptablePassword(request.password);
    if (await this.repository.findUserByEmail(request.email)) throw emailTaken();
    const passwordHash = await this.passwords.hash(request.password);
    const now = this.clock.now();
    const row = await this.repository.insertUser(
      newMember(
        {
          email: request.email,
          username: request.username,
          phone: toE164(request.phone) ?? null,
          passwordHash,
        },
        now,
      ),
      now,
    );
    // A concurrent sign-up with the same address can pass the check above; the index decides.
    if (row === null) throw emailTaken();
    return { id: row.id, email: row.email };
  }

  async get(userId: string): Promise<Account> {
    const view = await this.repository.findAccountView(userId);
    if (view === undefined) throw accountNotFound();
    const { user, storedBytes, links } = view;
    const quotaBytes = this.storage.storageQuotaBytes(user.customerLevel);
    return toAccount(user, { usedBytes: storedBytes, quotaBytes }, links);
  }

  /** Only the name and phone change; the schema has already dropped every other field. */
  async update(userId: string, request: UpdateAccountRequest): Promise<Account> {
    const changes: ProfileChanges = {};
    if (request.username !== undefined) changes.username = request.username;
    if (request.phone !== undefined) changes.phone = toE164(request.phone);
    const row =
      Object.keys(changes).length === 0
        ? await this.requireUser(userId)
        : await this.repository.updateProfile(userId, changes, this.clock.now());
    if (row === undefined) throw accountNotFound();
    return this.toAccountWithStorage(row);
  }

  /** Records the acceptance of the upload disclaimer; the first acceptance's time is kept. */
  async acceptUploadDisclaimer(userId: string): Promise<Account> {
    const row = await this.repository.acceptUploadDisclaimer(userId, this.clock.now());
    if (row === undefined) throw accountNotFound();
    return this.toAccountWithStorage(row);
  }

  /** docs/product/accounts.md#deactivation: access ends at once (every session revoked) and the
   *  data is kept. */
  async deactivate(userId: string): Promise<void> {
    const now = this.clock.now();
    await this.repository.transaction(async (tx) => {
      await tx.deactivateUser(userId, now);
      await tx.endSessions(userId, 'all', now);
    });
  }

  private async toAccountWithStorage(row: UserRow): Promise<Account> {
    const [storage, links] = await Promise.all([
      this.storage.storageUsage(row.id),
      this.repository.listSocialAccounts(row.id),
    ]);
    return toAccount(row, storage, links);
  }

  private async requireUser(userId: string): Promise<UserRow> {
    const row = await this.repository.findUserById(userId);
    if (row === undefined) throw accountNotFound();
    return row;
  }
}

/** A new member starts on Silver with its sign-up bonus, expiring at the end of the year. */
export function newMember(
  details: Pick<NewUser, 'email' | 'username' | 'phone' | 'passwordHash'>,
  now: Date,
): NewUser {
  return {
    ...details,
    customerLevel: 'Silver',
    points: plans.Silver.signUpBonusPoints,
    pointsExpiredAt: endOfYear(now),
  };
}

function emailTaken(): Conflict {
  return new Conflict(emailTakenMessage, { email: [emailTakenMessage] });
}

function accountNotFound(): NotFound {
  return new NotFound('This account no longer exists.');
}
