import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import dayjs from 'dayjs';
import { formatReceiptAmount, formatReceiptCard, type Receipt } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { CardList } from '#web/components/card-list';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { dateFormat } from '#web/lib/dates';
import { useDocumentTitle } from '#web/lib/document-title';
import { useReceipts } from './api/receipts';
import classes from './receipts-page.module.css';

function ReceiptCard({ receipt }: { receipt: Receipt }) {
  const card = formatReceiptCard(receipt.card_brand, receipt.card_last4);
  return (
    <Paper component="li" withBorder p="sm" className={classes.receipt}>
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Text fw={600}>{receipt.description}</Text>
          <Text fw={600} className={classes.amount}>
            {formatReceiptAmount(receipt.amount_cents, receipt.currency)}
          </Text>
        </Group>
        <Text size="sm">
          Paid <time dateTime={receipt.paid_at}>{dayjs(receipt.paid_at).format(dateFormat)}</time>
          {card === null ? '' : ` with ${card}`}
        </Text>
        <Text size="sm" c="dimmed">
          Receipt number {receipt.number}
        </Text>
        <Group>
          <Button
            component="a"
            href={receipt.download_url}
            download
            size="xs"
            variant="outline"
            aria-label={`Download PDF of receipt ${receipt.number}`}
          >
            Download PDF
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Receipts (docs/product/receipts.md): one per payment, newest first, each as a PDF. */
export default function ReceiptsPage() {
  useDocumentTitle('Receipts');
  const receipts = useReceipts();
  return (
    <Stack gap="md">
      <Anchor component={Link} to={paths.account}>
        Back to My Account
      </Anchor>
      <Title order={1}>Receipts</Title>
      <Text>A receipt for every payment you made, newest first, to download as a PDF.</Text>
      {receipts.isPending && <PageSpinner />}
      {receipts.isError && <LoadFailed error={receipts.error} onRetry={receipts.refetch} />}
      {receipts.isSuccess && receipts.data.results.length === 0 && (
        <Text c="dimmed">
          No payments yet. When you buy a plan on{' '}
          <Anchor component={Link} to={paths.membership} inherit>
            Membership
          </Anchor>
          , or order from a supplier’s page, its receipt appears here.
        </Text>
      )}
      {receipts.isSuccess && receipts.data.results.length > 0 && (
        <CardList label="Your receipts, newest first">
          {receipts.data.results.map((receipt) => (
            <ReceiptCard key={receipt.id} receipt={receipt} />
          ))}
        </CardList>
      )}
    </Stack>
  );
}
