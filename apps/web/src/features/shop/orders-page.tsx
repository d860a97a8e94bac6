import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import { LoadFailed } from '#web/components/load-failed';
import { NothingToShow } from '#web/components/nothing-to-show';
import { PageSpinner } from '#web/components/page-spinner';
import { paths } from '#web/config/paths';
import { dateFormat } from '#web/lib/dates';
import { useDocumentTitle } from '#web/lib/document-title';
import { useOrders } from './api/shop-api';
import { usd } from '#web/lib/money';
import { orderStatusBadges } from './order-status';

/** The member's orders, newest first (docs/product/shop.md#orders). */
export default function OrdersPage() {
  const orders = useOrders();
  useDocumentTitle('Your orders');

  return (
    <Stack gap="md">
      <Title order={1}>Your orders</Title>
      {orders.isPending ? (
        <PageSpinner />
      ) : orders.isError ? (
        <LoadFailed error={orders.error} onRetry={() => orders.refetch()} />
      ) : orders.data.length === 0 ? (
        <NothingToShow />
      ) : (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {orders.data.map((entry) => {
            const badge = orderStatusBadges[entry.status];
            return (
              <Paper component="li" key={entry.id} withBorder p="sm">
                <Anchor component={Link} to={paths.order(entry.id)} fw={600}>
                  {entry.product_name} × {entry.quantity}
                </Anchor>
                <Text size="sm">
                  {dayjs(entry.created_at).format(dateFormat)} · {usd(entry.amount_cents)} by card
                  {entry.points_used > 0
                    ? ` + ${entry.points_used.toLocaleString('en-US')} points`
                    : ''}
                </Text>
                <Text size="sm" fw={700} c={badge.color}>
                  {badge.label}
                </Text>
              </Paper>
            );
          })}
        </Stack>
      )}
      <Anchor component={Link} to={paths.points}>
        Your points
      </Anchor>
    </Stack>
  );
}
