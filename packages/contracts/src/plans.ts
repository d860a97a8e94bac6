import { z } from 'zod';

/** The membership plans (docs/product/membership.md#plans), in rank order: Silver < Gold <
 *  Platinum. */
export const planNames = ['Silver', 'Gold', 'Platinum'] as const;
export const planName = z.enum(planNames);
export type PlanName = z.infer<typeof planName>;

export interface Plan {
  name: PlanName;
  /** Yearly price in US cents; 0 is free. */
  priceCents: number;
  /** Shown on the plan card exactly as docs/product/membership.md#plans writes it. */
  priceLabel: string;
  signUpBonusPoints: number;
  storageBytes: number;
  storageLabel: string;
  dentalAiUsesPerYear: number;
  /** A dentist's reviews of photos or a Dental AI result (docs/product/photo-reviews.md). */
  photoReviewsPerYear: number;
  summaryReportsPerYear: number;
  treatmentHistoryReportsPerYear: number;
}

const GB = 1024 ** 3;

/** The membership term that the plan screen, the receipt e-mail and the receipt PDF all state
 *  (docs/product/membership.md#membership-terms). */
export const membershipSalesFinal =
  'All membership sales are final, with no cancellations or refunds.';

export const plans: Record<PlanName, Plan> = {
  Silver: {
    name: 'Silver',
    priceCents: 0,
    priceLabel: 'FREE',
    signUpBonusPoints: 500,
    storageBytes: 1 * GB,
    storageLabel: '1GB',
    dentalAiUsesPerYear: 10,
    photoReviewsPerYear: 1,
    summaryReportsPerYear: 1,
    treatmentHistoryReportsPerYear: 15,
  },
  Gold: {
    name: 'Gold',
    priceCents: 2999,
    priceLabel: '$29.99/Year',
    signUpBonusPoints: 3000,
    storageBytes: 5 * GB,
    storageLabel: '5GB',
    dentalAiUsesPerYear: 30,
    photoReviewsPerYear: 5,
    summaryReportsPerYear: 5,
    treatmentHistoryReportsPerYear: 15,
  },
  Platinum: {
    name: 'Platinum',
    priceCents: 4999,
    priceLabel: '$49.99/Year',
    signUpBonusPoints: 5000,
    storageBytes: 10 * GB,
    storageLabel: '10GB',
    dentalAiUsesPerYear: 50,
    photoReviewsPerYear: 10,
    summaryReportsPerYear: 10,
    treatmentHistoryReportsPerYear: 15,
  },
};

export function planRank(name: PlanName): number {
  return planNames.indexOf(name);
}

/** Sign-up bonus points expire at the end of the year in which they were granted
 *  (docs/product/membership.md#points). */
export function endOfYear(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), 11, 31, 23, 59, 59, 999));
}

/** A plan is "above" another when it ranks higher; buying one at or below the current level is refused. */
export function isUpgrade(from: PlanName, to: PlanName): boolean {
  return planRank(to) > planRank(from);
}

/**
 * Start of the membership year that contains `now`: the latest anniversary of `anchor` (the paid
 * membership's start, or the account's creation for Silver) that is not after `now`. Yearly limits
 * (Dental AI uses, reports) count from here. A 29 February anchor falls on 28 February in other years.
 */
export function membershipYearStart(anchor: Date, now: Date): Date {
  const anniversary = (year: number) => {
    const lastDay = new Date(Date.UTC(year, anchor.getUTCMonth() + 1, 0)).getUTCDate();
    return new Date(
      Date.UTC(
        year,
        anchor.getUTCMonth(),
        Math.min(anchor.getUTCDate(), lastDay),
        anchor.getUTCHours(),
        anchor.getUTCMinutes(),
        anchor.getUTCSeconds(),
        anchor.getUTCMilliseconds(),
      ),
    );
  };
  const thisYear = anniversary(now.getUTCFullYear());
  return thisYear <= now ? thisYear : anniversary(now.getUTCFullYear() - 1);
}
