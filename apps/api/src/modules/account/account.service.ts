import { parsePhoneNumberWithError } from 'libphonenumber-js';
import {
  endOfYear,
  plans,
  socialProviderNames,
  type Account,
  type RegisterRequest,
  type RegisterResponse,
  type SocialBindRequest,
  type SocialProvider,
  type UpdateAccountRequest,
} from '@dental/contracts';
import type { Clock } from '#api/clock';
import type { UserRow } from '#api/db/schema';
import { Conflict, NotFound, UnprocessableEntity } from '#api/domain-errors';
import type { AccountRepository, ProfileChanges } from './account.repository';
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
}

/** Rows never leave a service: this is the account the API answers with
 *  (docs/product/accounts.md#account-calls). */
export function toAccount(row: UserRow, storage: StorageUsage): Account {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    phone: row.phone,
    customer_level: row.customerLevel,
    points: row.points,
    points_expired_at: row.pointsExpiredAt?.toISOString() ?? null,
    // Social sign-in is not configured yet (docs/decisions/social-sign-in-not-configured.md).
    google_account: null,
    apple_account: null,
    facebook_account: null,
    storage_used_bytes: storage.usedBytes,
    storage_quota_bytes: storage.quotaBytes,
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

  /** A new member starts on Silver with its sign-up bonus, expiring at the end of the year. */
  async register(request: RegisterRequest): Promise<RegisterResponse> {
    assertAcceptablePassword(request.password);
    if (await this.repository.findUserByEmail(request.email)) throw emailTaken();
    const passwordHash = await this.passwords.hash(request.password);
    const now = this.clock.now();
    const row = await this.repository.insertUser(
      {
        email: request.email,
        username: request.username,
        phone: toE164(request.phone) ?? null,
        passwordHash,
        customerLevel: 'Silver',
        points: plans.Silver.signUpBonusPoints,
        pointsExpiredAt: endOfYear(now),
      },
      now,
    );
    // A concurrent sign-up with the same address can pass the check above; the index decides.
    if (row === null) throw emailTaken();
    return { id: row.id, email: row.email };
  }

  async get(userId: string): Promise<Account> {
    return this.toAccountWithStorage(await this.requireUser(userId));
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

  /** docs/product/accounts.md#deactivation: access ends at once (every session revoked) and the
   *  data is kept. */
  async deactivate(userId: string): Promise<void> {
    const now = this.clock.now();
    await this.repository.transaction(async (tx) => {
      await tx.deactivateUser(userId, now);
      await tx.endAllSessions(userId, now);
    });
  }

  /** Social sign-in is not configured on this server yet: say so rather than pretend. */
  linkSocialAccount(_userId: string, request: SocialBindRequest): Promise<Account> {
    const provider = socialProviderNames[request.login_type];
    return Promise.reject(
      new UnprocessableEntity(
        `Connecting your ${provider} account is not available on this server.`,
      ),
    );
  }

  /** Nothing can be linked while social sign-in is not configured, so nothing can be unlinked. */
  unlinkSocialAccount(_userId: string, provider: SocialProvider): Promise<Account> {
    return Promise.reject(
      new NotFound(`No ${socialProviderNames[provider]} account is linked to your profile.`),
    );
  }

  private async toAccountWithStorage(row: UserRow): Promise<Account> {
    return toAccount(row, await this.storage.storageUsage(row.id));
  }

  private async requireUser(userId: string): Promise<UserRow> {
    const row = await this.repository.findUserById(userId);
    if (row === undefined) throw accountNotFound();
    return row;
  }
}

function emailTaken(): Conflict {
  return new Conflict(emailTakenMessage, { email: [emailTakenMessage] });
}

function accountNotFound(): NotFound {
  return new NotFound('This account no longer exists.');
}
