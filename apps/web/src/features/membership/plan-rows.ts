import { isUpgrade, membershipSalesFinal, type Plan, type PlanName } from '@dental/contracts';

export interface PlanRow {
  label: string;
  value: string;
}

/** The rows of a plan card (docs/product/membership.md#plans), all read from the plan table. */
export function planRows(plan: Plan): PlanRow[] {
  return [
    { label: 'Price', value: plan.priceLabel },
    { label: 'Sign-up bonus points', value: plan.signUpBonusPoints.toLocaleString('en-US') },
    { label: 'Storage for X-rays and receipts', value: plan.storageLabel },
    { label: 'Dental AI diagnosis', value: `${String(plan.dentalAiUsesPerYear)} times/year` },
    {
      label: 'Dentist’s review of photos',
      value: `${String(plan.photoReviewsPerYear)} ${plan.photoReviewsPerYear === 1 ? 'review' : 'reviews'}/year`,
    },
    {
      label: 'Receipts and history summary reports',
      value: `${String(plan.summaryReportsPerYear)}/year`,
    },
    {
      label: 'Treatment history reports',
      value: `${String(plan.treatmentHistoryReportsPerYear)}/year`,
    },
  ];
}

/** docs/product/membership.md#choosing-a-plan: disabled without an account, for Silver, and at or
 *  below the current level. */
export function canChoose(plan: PlanName, level: PlanName | undefined): boolean {
  return level !== undefined && plan !== 'Silver' && isUpgrade(level, plan);
}

/** The four membership terms (docs/product/membership.md#membership-terms), as the NOTES box lists
 *  them. */
export const membershipTerms = [
  'Sign-up bonus points expire at the end of the same year.',
  'Bonus points are redeemable in the marketplace, non-transferable and have no monetary value.',
  'X-rays and receipts share the same storage limit.',
  membershipSalesFinal,
] as const;
