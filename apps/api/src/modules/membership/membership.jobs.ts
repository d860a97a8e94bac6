import type { JobQueue } from '#api/jobs/job-queue';
import type { MembershipService } from './membership.service';

export const membershipExpiryQueue = 'membership-expiry';

/**
 * Every few minutes: the "ends in 14 days" e-mails and the return to Silver of ended terms
 * (docs/decisions/membership-expiry.md). A sweep is idempotent, so a retried run is harmless.
 */
export async function registerMembershipJobs(
  jobs: JobQueue,
  membership: MembershipService,
): Promise<void> {
  await jobs.register(
    membershipExpiryQueue,
    async () => {
      await membership.sweepExpiry();
    },
    {
      retryLimit: 0,
      retryDelaySeconds: 60,
      expireInSeconds: 300,
      batchSize: 1,
    },
    '*/5 * * * *',
  );
}
