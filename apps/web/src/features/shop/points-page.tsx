import { Anchor, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import type { LedgerEntry } from '@dental/contracts';
import { Detail, DetailsList } from '#web/components/details-list';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { paths } from '#web/config/paths';
import { dateFormat } from '#web/lib/dates';
import { useDocumentTitle } from '#web/lib/document-title';
import { pointsExpiryText } from '#web/lib/money';
import { usePoints } from './api/shop-api';

/** What one ledger row was, in words. */
function entryText(entry: LedgerEntry): string {
  switch (entry.kind) {
    case 'granted':
      return entry.plan === null ? 'Points held before this list began' : `${entry.plan} bonus`;
    case 'spent':
      return 'Used on an order';
    case 'returned':
      return 'Given back: the order was not paid';
    case 'expired':
      return 'Expired at the end of the year';
  }
}

const signed = (points: number) =>
  `${points > 0 ? '+' : '−'}${Math.abs(points).toLocaleString('en-US')}`;

/** The member's points and every change to them (docs/product/shop.md#points-screen). */
export default function PointsPage() {
  const points = usePoints();
  useDocumentTitle('Points');

  if (points.isPending) return <PageSpinner />;
  return (
    <Stack gap="md">
      <Title order={1}>Points</Title>
      {points.isError ? (
        <LoadFailed error={points.error} onRetry={() => points.refetch()} />
      ) : (
        <>
          <DetailsList>
            <Detail label="Current points">{points.data.points.toLocaleString('en-US')}</Detail>
            <Detail label="Points expiration date">
              {pointsExpiryText(points.data.points_expired_at)}
            </Detail>
          </DetailsList>
          <Text size="sm">
            100 points = $1 off an order in the shop, up to half of its price. Points are a discount
            only: they cannot be paid out or given to anyone else.
          </Text>
          <Table.ScrollContainer minWidth={320}>
            <Table>
              <Table.Caption>Every change to your points, newest first</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Date</Table.Th>
                  <Table.Th>What</Table.Th>
                  <Table.Th ta="right">Change</Table.Th>
                  <Table.Th ta="right">Balance</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {points.data.ledger.map((entry) => (
                  <Table.Tr key={entry.id}>
                    <Table.Td>{dayjs(entry.at).format(dateFormat)}</Table.Td>
                    <Table.Td>
                      {entry.order_id === null ? (
                        entryText(entry)
                      ) : (
                        <Anchor component={Link} to={paths.order(entry.order_id)}>
                          {entryText(entry)}
                        </Anchor>
                      )}
                    </Table.Td>
                    <Table.Td ta="right">{signed(entry.points)}</Table.Td>
                    <Table.Td ta="right">{entry.balance.toLocaleString('en-US')}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
      <Group gap="lg">
        <Anchor component={Link} to={paths.orders}>
          Your orders
        </Anchor>
        <Anchor component={Link} to={paths.account}>
          Profile
        </Anchor>
      </Group>
    </Stack>
  );
}
