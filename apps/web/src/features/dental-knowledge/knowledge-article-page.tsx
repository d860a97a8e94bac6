import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { paths } from '#web/config/paths';
import { MarkdownDocument } from '#web/components/markdown-document';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { useKnowledgeArticle } from './api/get-knowledge-article';
import { NothingToShow } from '#web/components/nothing-to-show';
import { knowledgeSectionTitle } from './texts';

const backLink = (
  <Anchor component={Link} to={paths.dentalKnowledge}>
    All articles
  </Anchor>
);

/** One article (docs/product/knowledge.md#article): title, update date and the markdown body,
 *  fetched after the record. */
export default function KnowledgeArticlePage() {
  const { knowledgeId = '' } = useParams();
  const article = useKnowledgeArticle(knowledgeId);
  useDocumentTitle(article.data?.title ?? knowledgeSectionTitle);

  if (article.isPending) return <PageSpinner />;
  if (article.isError) {
    // docs/product/knowledge.md#loading-and-failures: no message for a failed knowledge call; an
    // empty page that leads back.
    return (
      <Stack gap="md">
        <Title order={1}>{knowledgeSectionTitle}</Title>
        <NothingToShow />
        {backLink}
      </Stack>
    );
  }
  return (
    <Stack gap="md" component="article">
      <Title order={1}>{article.data.title}</Title>
      <Text size="sm">Updated on {article.data.updateDate}</Text>
      <MarkdownDocument key={article.data.id} url={article.data.content_markdown} />
      {backLink}
    </Stack>
  );
}
