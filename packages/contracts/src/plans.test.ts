import { describe, expect, it } from 'vitest';
import { endOfYear, isUpgrade, membershipYearStart, planRank, plans, type PlanName } from './plans';

describe('plan ordering', () => {
  it.each<[PlanName, PlanName, boolean]>([
    ['Silver', 'Gold', true],
    ['Silver', 'Platinum', true],
    ['Gold', 'Platinum', true],
    ['Gold', 'Gold', false],
    ['Gold', 'Silver', false],
    ['Platinum', 'Gold', false],
    ['Platinum', 'Platinum', false],
  ])('%s → %s is an upgrade: %s', (from, to, expected) => {
    expect(isUpgrade(from, to)).toBe(expected);
  });

  it('ranks Silver < Gold < Platinum', () => {
    expect([planRank('Silver'), planRank('Gold'), planRank('Platinum')]).toEqual([0, 1, 2]);
  });

  it('keeps the figures of the plan table', () => {
    expect(plans.Gold).toMatchObject({ priceCents: 2999, signUpBonusPoints: 3000 });
    expect(plans.Platinum.dentalAiUsesPerYear).toBe(50);
    expect(plans.Silver.storageBytes).toBe(1024 ** 3);
  });
});

describe('endOfYear', () => {
  it('is the last millisecond of the same UTC year', () => {
    expect(endOfYear(new Date('2026-03-04T05:06:07Z')).toISOString()).toBe(
      '2026-12-31T23:59:59.999Z',
    );
  });
});

describe('membershipYearStart', () => {
  it.each([
    ['2025-03-10T08:00:00Z', '2026-11-22T12:00:00Z', '2026-03-10T08:00:00.000Z'],
    ['2025-12-01T00:00:00Z', '2026-11-22T12:00:00Z', '2025-12-01T00:00:00.000Z'],
    ['2026-11-22T12:00:00Z', '2026-11-22T12:00:00Z', '2026-11-22T12:00:00.000Z'],
    ['2024-02-29T10:00:00Z', '2026-03-01T00:00:00Z', '2026-02-28T10:00:00.000Z'],
    ['2024-02-29T10:00:00Z', '2026-02-28T09:00:00Z', '2025-02-28T10:00:00.000Z'],
  ])('anchor %s at %s starts %s', (anchor, now, expected) => {
    expect(membershipYearStart(new Date(anchor), new Date(now)).toISOString()).toBe(expected);
  });
});
