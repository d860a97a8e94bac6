import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Link, useParams, useSearchParams } from 'react-router';
import dayjs from 'dayjs';
import { Detail, DetailsList } from '#web/components/details-list';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { paths } from '#web/config/paths';
import { dateFormat } from '#web/lib/dates';
import { useDocumentTitle } from '#web/lib/document-title';
import { useOrder } from './api/shop-api';
import { pointsText, pointsValue, usd } from '#web/lib/money';
import { orderStatusBadges } from './order-status';

/** One order (docs/product/shop.md#order-page); the checkout sends the browser back here. */
export default function OrderPage() {
  const { orderId = '' } = useParams();
  const [search] = useSearchParams();
  const order = useOrder(orderId);
  useDocumentTitle('Order');

  if (order.isPending) return <PageSpinner />;
  if (order.isError) {
    return (
      <Stack gap="md">
        <Title order={1}>Order</Title>
        <LoadFailed error={order.error} onRetry={() => order.refetch()} />
        <Anchor component={Link} to={paths.orders}>
          Your orders
        </Anchor>
      </Stack>
    );
  }
  const { data } = order;
  const badge = orderStatusBadges[data.status];
  const { shipping } = data;
  return (
    <Stack gap="md">
      <Title order={1}>Order</Title>
      {search.get('payment') === 'cancelled' && data.status !== 'paid' && (
        <Alert color="gray" variant="outline">
          The payment was cancelled. Any points it used have been given back.
        </Alert>
      )}
      <DetailsList>
        <Detail label="Status">
          <Text span fw={700} c={badge.color}>
            {badge.label}
          </Text>
        </Detail>
        <Detail label="Product">
          {data.product_name} × {data.quantity}
        </Detail>
        <Detail label="Price">{usd(data.subtotal_cents)}</Detail>
        <Detail label="Points used">
          {pointsText(data.points_used)} (−{pointsValue(data.points_used)})
        </Detail>
        <Detail label={data.status === 'paid' ? 'Paid by card' : 'To pay by card'}>
          {usd(data.amount_cents)}
        </Detail>
        <Detail label="Ordered">{dayjs(data.created_at).format(`${dateFormat} HH:mm`)}</Detail>
        {data.paid_at !== null && (
          <Detail label="Paid">{dayjs(data.paid_at).format(`${dateFormat} HH:mm`)}</Detail>
        )}
        <Detail label="Ship to">
          {[
            shipping.name,
            shipping.line1,
            shipping.line2,
            `${shipping.city}, ${shipping.state} ${shipping.postal_code}`,
          ]
            .filter((line) => line !== '')
            .join(', ')}
        </Detail>
      </DetailsList>
      <Group justify="space-between">
        <Anchor component={Link} to={paths.orders}>
          Your orders
        </Anchor>
        {data.checkout_url !== null && (
          <Button component="a" href={data.checkout_url}>
            Pay now
          </Button>
        )}
      </Group>
    </Stack>
  );
}
