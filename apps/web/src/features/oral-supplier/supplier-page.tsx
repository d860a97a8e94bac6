import { Anchor, Button, Group, Stack, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { paths } from '#web/config/paths';
import { MarkdownDocument } from '#web/components/markdown-document';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { useSupplier } from './api/get-supplier';
import { NothingToShow } from '#web/components/nothing-to-show';
import { supplierSectionTitle } from './texts';
import classes from './oral-supplier.module.css';

const backLink = (
  <Anchor component={Link} to={paths.oralSuppliers}>
    All suppliers
  </Anchor>
);

/** One supplier page (docs/product/knowledge.md#supplier-page): title, cover, markdown body, and
 *  Buy at the bottom, which opens the manufacturer's page in a new tab and is left out when there
 *  is none (docs/decisions/oral-supplier-buy-button.md). */
export default function SupplierPage() {
  const { supplierId = '' } = useParams();
  const supplier = useSupplier(supplierId);
  useDocumentTitle(supplier.data?.title ?? supplierSectionTitle);

  if (supplier.isPending) return <PageSpinner />;
  if (supplier.isError) {
    return (
      <Stack gap="md">
        <Title order={1}>{supplierSectionTitle}</Title>
        <NothingToShow />
        {backLink}
      </Stack>
    );
  }
  const { title, cover_image: cover, cover_alt: coverAlt, buy_url: buyUrl } = supplier.data;
  return (
    <Stack gap="md" component="article">
      <Title order={1}>{title}</Title>
      <img src={cover} alt={coverAlt} width={640} height={360} className={classes.detailCover} />
      <MarkdownDocument key={supplier.data.id} url={supplier.data.content_markdown} />
      <Group justify="space-between" align="center">
        {backLink}
        {buyUrl !== null && (
          <Button
            component="a"
            href={buyUrl}
            target="_blank"
            rel="noopener noreferrer"
            rightSection={<IconExternalLink size={16} aria-hidden />}
          >
            Buy
          </Button>
        )}
      </Group>
    </Stack>
  );
}
