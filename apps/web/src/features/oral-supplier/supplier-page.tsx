import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { paths } from '#web/config/paths';
import { MarkdownDocument } from '#web/components/markdown-document';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { useSupplier } from '#web/lib/supplier';
import { NothingToShow } from '#web/components/nothing-to-show';
import { usd } from '#web/lib/money';
import { supplierSectionTitle } from './texts';
import classes from './oral-supplier.module.css';

const backLink = (
  <Anchor component={Link} to={paths.oralSuppliers}>
    All suppliers
  </Anchor>
);

/** One supplier page (docs/product/knowledge.md#supplier-page): title, cover, markdown body, the
 *  products our shop sells, and Buy at the bottom, which opens their order form and is left out
 *  when there are none; the manufacturer's site is a plain link beside it
 *  (docs/decisions/points-shop.md). */
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
  const {
    title,
    cover_image: cover,
    cover_alt: coverAlt,
    buy_url: buyUrl,
    products,
  } = supplier.data;
  return (
    <Stack gap="md" component="article">
      <Title order={1}>{title}</Title>
      <img src={cover} alt={coverAlt} width={640} height={360} className={classes.detailCover} />
      <MarkdownDocument key={supplier.data.id} url={supplier.data.content_markdown} />
      {products.length > 0 && (
        <section aria-labelledby="supplier-products">
          <Title order={2} id="supplier-products" mb="xs">
            In our shop
          </Title>
          <ul className={classes.products}>
            {products.map((product) => (
              <li key={product.id} className={classes.product}>
                <Text span>{product.name}</Text>
                <Text span fw={700}>
                  {usd(product.price_cents)}
                </Text>
              </li>
            ))}
          </ul>
          <Text size="sm" mt="xs">
            Use your points: 100 points = $1, up to half of the price.
          </Text>
        </section>
      )}
      <Group justify="space-between" align="center">
        {backLink}
        <Group gap="md">
          {buyUrl !== null && (
            <Anchor href={buyUrl} target="_blank" rel="noopener noreferrer">
              Manufacturer’s website
              <IconExternalLink size={14} aria-hidden className={classes.external} />
            </Anchor>
          )}
          {products.length > 0 && (
            <Button component={Link} to={paths.supplierOrder(supplier.data.id)}>
              Buy
            </Button>
          )}
        </Group>
      </Group>
    </Stack>
  );
}
