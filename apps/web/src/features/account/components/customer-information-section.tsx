import { Anchor, Group, Progress, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { formatStorage, type Account } from '@dental/contracts';
import { Detail, DetailsList } from '#web/components/details-list';
import { Section } from '#web/components/section';
import { paths } from '#web/config/paths';
import { planEndText, useCurrentPlan } from '#web/lib/current-plan';
import { pointsExpiryText } from '#web/lib/money';

/** When the member's plan ends (docs/decisions/membership-current-plan.md). */
function PlanEnd() {
  const plan = useCurrentPlan();
  return plan.data ? <Detail label="Plan ends">{planEndText(plan.data)}</Detail> : null;
}

/** The real storage bar (docs/product/records.md#storage-quota) in place of a static '2.3GB of 15GB
 *  used' (docs/decisions/storage-usage-on-profile.md). */
function StorageUsage({ account }: { account: Account }) {
  const { storage_used_bytes: used, storage_quota_bytes: quota } = account;
  const text = `${formatStorage(used)} of ${formatStorage(quota)} used`;
  return (
    <Stack gap={4} mt="sm">
      <Text size="sm">Storage for X-rays and records: {text}</Text>
      <Progress
        value={Math.min(100, (used / quota) * 100)}
        aria-label={`Storage: ${text}`}
        color={used >= quota ? 'red' : undefined}
      />
    </Stack>
  );
}

/** The member's level, plan, points and storage (docs/product/accounts.md#profile). */
export function CustomerInformationSection({ account }: { account: Account }) {
  return (
    <Section title="Customer Information">
      <DetailsList>
        <Detail label="Customer level">{account.customer_level}</Detail>
        <PlanEnd />
        <Detail label="Current points">{account.points.toLocaleString('en-US')}</Detail>
        <Detail label="Points expiration date">
          {pointsExpiryText(account.points_expired_at)}
        </Detail>
      </DetailsList>
      <StorageUsage account={account} />
      <Group gap="lg" mt="sm">
        <Anchor component={Link} to={paths.membership}>
          Membership Upgrade
        </Anchor>
        <Anchor component={Link} to={paths.points}>
          Points
        </Anchor>
        <Anchor component={Link} to={paths.orders}>
          Your orders
        </Anchor>
      </Group>
    </Section>
  );
}
