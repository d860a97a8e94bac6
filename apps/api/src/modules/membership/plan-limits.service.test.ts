import { describe, expect, it } from 'vitest';
import { plans } from '@dental/contracts';
import { storageQuotaMessage } from './plan-limits.service';

describe('storageQuotaMessage', () => {
  it.each([
    [
      'Silver',
      'This upload would exceed the 1GB storage of your Silver plan. The Gold plan raises it to 5GB.',
    ],
    [
      'Gold',
      'This upload would exceed the 5GB storage of your Gold plan. The Platinum plan raises it to 10GB.',
    ],
    [
      'Platinum',
      'This upload would exceed the 10GB storage of your Platinum plan. Delete photos or records you no longer need to make room.',
    ],
  ] as const)('names the limit of %s and what raises it', (plan, message) => {
    expect(storageQuotaMessage(plans, plan)).toBe(message);
  });
});
