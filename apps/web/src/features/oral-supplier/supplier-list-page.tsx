import { Stack, Title } from '@mantine/core';
import { Link } from 'react-router';
import { paths } from '#web/config/paths';
import { MarkdownDocument } from '#web/components/markdown-document';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { useSupplierList } from './api/get-suppliers';
import { useSupplierTopic } from './api/get-supplier-topic';
import { LoadFailed } from '#web/components/load-failed';
import { NothingToShow } from '#web/components/nothing-to-show';
import { supplierSectionTitle } from './texts';
import classes from './oral-supplier.module.css';

/** The topic's name and picture, and its short introduction. */
function TopicHeading() {
  const topic = useSupplierTopic();
  if (topic.isPending) return <PageSpinner />;
  // docs/product/knowledge.md#supplier-list: no message when the call fails; the section keeps its
  // card's name as heading.
  if (topic.isError) return <Title order={1}>{supplierSectionTitle}</Title>;
  return (
    <>
      <div className={classes.topic}>
        <img
          src={topic.data.image}
          alt={topic.data.image_alt}
          width={640}
          height={360}
          className={classes.topicImage}
        />
        <Title order={1}>{topic.data.title}</Title>
      </div>
      <MarkdownDocument url={topic.data.content_markdown} headingOffset={1} />
    </>
  );
}

function SupplierCards() {
  const suppliers = useSupplierList();
  if (suppliers.isPending) return <PageSpinner />;
  if (suppliers.isError) return <LoadFailed error={suppliers.error} onRetry={suppliers.refetch} />;
  if (suppliers.data.length === 0) return <NothingToShow />;
  return (
    <ul className={classes.grid} aria-label="Suppliers">
      {suppliers.data.map((supplier) => (
        <li key={supplier.id}>
          {/* Relative to this page: the card leads to oral-supplier/{supplierId}
              (docs/product/knowledge.md#supplier-list). */}
          <Link to={paths.oralSupplier(supplier.id)} className={classes.card}>
            <img
              src={supplier.cover_image}
              alt=""
              width={640}
              height={360}
              className={classes.cover}
            />
            <span>{supplier.title}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** Oral hygiene suppliers (docs/product/knowledge.md#supplier-list): the topic heading and picture,
 *  then one card per page. */
export default function SupplierListPage() {
  useDocumentTitle(supplierSectionTitle);
  return (
    <Stack gap="lg">
      <TopicHeading />
      <SupplierCards />
    </Stack>
  );
}
