import { useState } from 'react';
import { Anchor, Highlight, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconBrandYoutube, IconSearch } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router';
import { knowledgeSearchMaxLength, searchWords, type KnowledgeListItem } from '@dental/contracts';
import { paths } from '#web/config/paths';
import { PageSpinner } from '#web/components/page-spinner';
import { useDocumentTitle } from '#web/lib/document-title';
import { useKnowledgeList, useKnowledgeSearch } from './api/get-knowledge-list';
import { youtubeSearchUrl } from './youtube-search';
import { LoadFailed } from '#web/components/load-failed';
import { NothingToShow } from '#web/components/nothing-to-show';
import { knowledgeSectionTitle } from './texts';
import classes from './content-card.module.css';

/** How long typing pauses before the search is sent. */
const searchDelayMs = 300;

function KnowledgeCard({ article, words }: { article: KnowledgeListItem; words: string[] }) {
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
            <Highlight component="span" inherit highlight={words}>
              {article.title}
            </Highlight>
          </Anchor>
        </Title>
        {article.excerpt !== undefined && (
          <Highlight size="sm" highlight={words}>
            {article.excerpt}
          </Highlight>
        )}
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
 *  cover, title and a video search; a search over titles and text narrows the list as the reader
 *  types (docs/product/knowledge.md#search). */
export default function KnowledgeListPage() {
  useDocumentTitle(knowledgeSectionTitle);
  // The search lives in the address, so Back from an article returns to the same results.
  const [params, setParams] = useSearchParams();
  const [typed, setTyped] = useState(params.get('q') ?? '');
  const [debounced] = useDebouncedValue(typed, searchDelayMs);
  const search = debounced.trim();
  const words = searchWords(search);
  const all = useKnowledgeList();
  const found = useKnowledgeSearch(search);
  const articles = search === '' ? all : found;

  const count = articles.data?.length ?? 0;
  // Said to screen readers as the results change; always present so each change is announced.
  const outcome =
    search === '' || articles.data === undefined
      ? ''
      : count === 0
        ? `No articles match “${search}”. Try fewer or other words.`
        : `${String(count)} ${count === 1 ? 'article matches' : 'articles match'} “${search}”.`;

  const searchFor = (value: string) => {
    setTyped(value);
    setParams(value.trim() === '' ? {} : { q: value }, { replace: true });
  };

  return (
    <Stack gap="lg">
      <Title order={1}>{knowledgeSectionTitle}</Title>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
        }}
      >
        <TextInput
          type="search"
          label="Search the articles"
          description="Words in the title or the text"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={typed}
          maxLength={knowledgeSearchMaxLength}
          onChange={(event) => {
            searchFor(event.currentTarget.value);
          }}
        />
      </form>
      <Text role="status" className={classes.outcome}>
        {outcome}
      </Text>
      {articles.isPending ? (
        <PageSpinner />
      ) : articles.isError ? (
        <LoadFailed error={articles.error} onRetry={articles.refetch} />
      ) : articles.data.length === 0 ? (
        search === '' && <NothingToShow />
      ) : (
        <ul className={classes.grid} aria-label="Articles">
          {articles.data.map((article) => (
            <KnowledgeCard key={article.id} article={article} words={words} />
          ))}
        </ul>
      )}
    </Stack>
  );
}
