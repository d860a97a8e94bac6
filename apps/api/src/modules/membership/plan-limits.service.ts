import {
  membershipYearStart,
  planNames,
  plans,
  problemTypes,
  type Plan,
  type PlanName,
} from '@dental/contracts';
import type { Database } from '#api/db/client';
import { Forbidden, NotFound, UnprocessableEntity } from '#api/domain-errors';
import type { FilesRepository } from '../files/files.repository';
import type { MembershipRepository } from './membership.repository';

export type PlanLimits = Record<
  PlanName,
  Pick<Plan, 'name' | 'storageBytes' | 'storageLabel' | YearlyLimit | CalendarYearLimit>
>;

/** The plan's yearly allowances, counted per membership year (docs/product/membership.md#plan-limits). */
export type YearlyLimit = 'dentalAiUsesPerYear' | 'photoReviewsPerYear';

/** The plan's report allowances, counted per calendar year (UTC) rather than membership year
 *  (docs/decisions/reports.md). */
export type CalendarYearLimit = 'summaryReportsPerYear' | 'treatmentHistoryReportsPerYear';

/** 1 January 00:00 UTC of `now`'s year. */
const calendarYearStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), 0, 1));

/** A 403 the web tells apart from a refused session: the plan's allowance is spent. */
export class PlanLimitReached extends Forbidden {
  override readonly type = problemTypes.planLimitReached;
}

/** What each yearly allowance counts, as the refusal names it. */
const yearlyLimitNames: Record<YearlyLimit, string> = {
  dentalAiUsesPerYear: 'Dental AI diagnoses',
  photoReviewsPerYear: 'dentist’s reviews',
};

/** Uses of a yearly allowance in the current membership year. */
export interface YearlyUsage {
  plan: PlanName;
  used: number;
  allowed: number;
}

export interface StorageUsage {
  usedBytes: number;
  quotaBytes: number;
}

/** The message of a refused upload: the limit, and the plan that raises it
 *  (docs/product/membership.md#plan-limits). */
export function storageQuotaMessage(limits: PlanLimits, plan: PlanName): string {
  const current = limits[plan];
  const next = planNames.slice(planNames.indexOf(plan) + 1)[0];
  const advice =
    next === undefined
      ? 'Delete photos or records you no longer need to make room.'
      : `The ${next} plan raises it to ${limits[next].storageLabel}.`;
  return `This upload would exceed the ${current.storageLabel} storage of your ${current.name} plan. ${advice}`;
}

/**
 * The limits of the member's plan (docs/product/membership.md#plan-limits), one method per limit.
 * Storage: photos and medical files share one quota ("X-rays and receipts share the same storage
 * limit").
 */
export class PlanLimitsService {
  constructor(
    private readonly files: FilesRepository,
    private readonly memberships: MembershipRepository,
    private readonly limits: PlanLimits = plans,
  ) {}

  /** What the member stores and may store, for the Profile's usage bar. */
  async storageUsage(userId: string): Promise<StorageUsage> {
    const stored = await this.files.planAndStorageUsed(userId);
    if (stored === undefined) throw new NotFound('This account no longer exists.');
    return { usedBytes: stored.usedBytes, quotaBytes: this.storageQuotaBytes(stored.plan) };
  }

  storageQuotaBytes(plan: PlanName): number {
    return this.limits[plan].storageBytes;
  }

  /**
   * Refuses (422) an upload of `addedBytes` that would take the member past the plan's storage.
   * Runs in the transaction that stores the upload (`tx`) and locks the member until it ends.
   */
  async reserveStorage(tx: Database, userId: string, addedBytes: number): Promise<void> {
    const files = this.files.in(tx);
    const plan = await files.lockMember(userId);
    if (plan === undefined) throw new NotFound('This account no longer exists.');
    const used = await files.storageUsedBytes(userId);
    if (used + addedBytes > this.limits[plan].storageBytes) {
      throw new UnprocessableEntity(storageQuotaMessage(this.limits, plan));
    }
  }

  /**
   * The member's uses of a yearly allowance in the current membership year and the plan's
   * allowance (docs/product/membership.md#plan-limits). `countUses` counts the member's uses
   * since a moment: the feature keeps them.
   */
  async yearlyUsage(
    limit: YearlyLimit,
    db: Database,
    userId: string,
    now: Date,
    countUses: (since: Date) => Promise<number>,
  ): Promise<YearlyUsage> {
    return this.yearlyUsageOf(limit, db, userId, now, countUses, (files) => files.planOf(userId));
  }

  /** Refuses (422) a use when the usage has none left, naming the plan that raises it. */
  refuseSpentUses(limit: YearlyLimit, { plan, used, allowed }: YearlyUsage): void {
    if (used < allowed) return;
    const next = planNames[planNames.indexOf(plan) + 1];
    const advice =
      next === undefined
        ? 'It starts again with your next membership year.'
        : `The ${next} plan raises it to ${String(this.limits[next][limit])} a year.`;
    throw new UnprocessableEntity(
      `You have used all ${String(allowed)} ${yearlyLimitNames[limit]} of your ${plan} plan for this membership year. ${advice}`,
    );
  }

  /**
   * Refuses (422) a use beyond the plan's allowance in the current membership year. Runs in the
   * transaction that records the use (`tx`) and locks the member until it ends, so two uses at
   * once cannot both take the last one.
   */
  async reserveUse(
    limit: YearlyLimit,
    tx: Database,
    userId: string,
    now: Date,
    countUses: (since: Date) => Promise<number>,
  ): Promise<void> {
    this.refuseSpentUses(
      limit,
      await this.yearlyUsageOf(limit, tx, userId, now, countUses, (files) =>
        files.lockMember(userId),
      ),
    );
  }

  /** The member's uses of a calendar-year allowance since 1 January (UTC) and the plan's
   *  allowance. `countUses` counts the member's uses since a moment: the feature keeps them. */
  async calendarYearUsage(
    limit: CalendarYearLimit,
    db: Database,
    userId: string,
    now: Date,
    countUses: (since: Date) => Promise<number>,
  ): Promise<YearlyUsage> {
    return this.calendarYearUsageOf(limit, await this.files.in(db).planOf(userId), now, countUses);
  }

  /**
   * Refuses (403, with `refusal`'s words) a use beyond the plan's allowance in the calendar
   * year. Runs in the transaction that records the use (`tx`) and locks the member until it
   * ends, so two uses at once cannot both take the last one.
   */
  async reserveCalendarYearUse(
    limit: CalendarYearLimit,
    tx: Database,
    userId: string,
    now: Date,
    countUses: (since: Date) => Promise<number>,
    refusal: (plan: PlanName) => string,
  ): Promise<void> {
    const usage = await this.calendarYearUsageOf(
      limit,
      await this.files.in(tx).lockMember(userId),
      now,
      countUses,
    );
    if (usage.used >= usage.allowed) throw new PlanLimitReached(refusal(usage.plan));
  }

  private async calendarYearUsageOf(
    limit: CalendarYearLimit,
    plan: PlanName | undefined,
    now: Date,
    countUses: (since: Date) => Promise<number>,
  ): Promise<YearlyUsage> {
    if (plan === undefined) throw new NotFound('This account no longer exists.');
    return {
      plan,
      used: await countUses(calendarYearStart(now)),
      allowed: this.limits[plan][limit],
    };
  }

  private async yearlyUsageOf(
    limit: YearlyLimit,
    db: Database,
    userId: string,
    now: Date,
    countUses: (since: Date) => Promise<number>,
    readPlan: (files: FilesRepository) => Promise<PlanName | undefined>,
  ): Promise<YearlyUsage> {
    const plan = await readPlan(this.files.in(db));
    const anchor = await this.memberships.in(db).membershipAnchor(userId);
    if (plan === undefined || anchor === undefined) {
      throw new NotFound('This account no longer exists.');
    }
    return {
      plan,
      used: await countUses(membershipYearStart(anchor, now)),
      allowed: this.limits[plan][limit],
    };
  }
}
