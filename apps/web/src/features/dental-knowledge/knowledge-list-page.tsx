import { Anchor, Paper, Stack, Title } from '@mantine/core';
import { IconBrandYoutube } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { KnowledgeListItem } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { useKnowledgeList } from './api/get-knowledge-list';
import { youtubeSearchUrl } from './youtube-search';
import { LoadFailed } from '#web/components/load-failed';
import { NothingToShow } from '#web/components/nothing-to-show';
import { knowledgeSectionTitle } from './texts';
import classes from './content-card.module.css';

function KnowledgeCard({ article }: { article: KnowledgeListItem }) {
  return (
    <li>
      <Paper withBorder p="sm" className={classes.card}>
        <img
          src={article.cover_image}
          alt={article.cover_alt}
          width={640}
          height={360}
          className={classes.cover}
        />
        <Title order={2} size="h4" className={classes.title}>
          <Anchor component={Link} to={paths.knowledgeArticle(article.id)} inherit>
            {article.title}
          </Anchor>
        </Title>
        <Anchor
          href={youtubeSearchUrl(article.title)}
          target="_blank"
          rel="noopener noreferrer"
          size="sm"
          aria-label={`Videos about ${article.title} on YouTube (opens in a new tab)`}
        >
          <IconBrandYoutube size={16} aria-hidden className={classes.icon} /> Videos on YouTube
        </Anchor>
      </Paper>
    </li>
  );
}

/** Dental and Tx Knowledge (docs/product/knowledge.md#knowledge-list): every article with its
 *  cover, title and a video search. */
export default function KnowledgeListPage() {
  useDocumentTitle(knowledgeSectionTitle);
  const articles = useKnowledgeList();
  return (
    <Stack gap="lg">
      <Title order={1}>{knowledgeSectionTitle}</Title>
      {articles.isPending ? (
        <PageSpinner />
      ) : articles.isError ? (
        <LoadFailed error={articles.error} onRetry={articles.refetch} />
      ) : articles.data.length === 0 ? (
        <NothingToShow />
      ) : (
        <ul className={classes.grid} aria-label="Articles">
          {articles.data.map((article) => (
            <KnowledgeCard key={article.id} article={article} />
          ))}
        </ul>
      )}
    </Stack>
  );
}
