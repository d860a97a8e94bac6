import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { KnowledgeArticle, KnowledgeListItem } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { deferred, json, stubFetch, testAccount, type Handler } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const brushingId = '6f1d3c9e-0b51-5d6f-9f0e-3b2a1c4d5e6f';
const decayId = '0a9b8c7d-6e5f-5a4b-8c3d-2e1f0a9b8c7d';

const listItem = (id: string, title: string): KnowledgeListItem => ({
  id,
  title,
  update_date: '2026-11-22',
  cover_image: `/api/content/images/${id}.svg`,
  cover_alt: `Cover of ${title}`,
  content_markdown: `/api/dental-knowledge/${id}/markdown/`,
});

const articleOf = (id: string, title: string): KnowledgeArticle => ({
  id,
  title,
  updateDate: '2026-11-22',
  content_markdown: `/api/dental-knowledge/${id}/markdown/`,
});

const markdown = (text: string): Response =>
  new Response(text, { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });

function signedIn(handlers: Record<string, Handler>) {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  return stubFetch({ 'GET /api/account/': () => json(testAccount), ...handlers });
}

describe('Dental knowledge list', () => {
  it('shows each article’s cover, a link to it and a YouTube search for its title', async () => {
    const api = signedIn({
      'GET /api/dental-knowledge/': () =>
        json([listItem(brushingId, 'How to Brush'), listItem(decayId, 'Tooth Decay & You')]),
    });
    renderRoute('/dental-knowledge');
    expect(
      await screen.findByRole('heading', { name: 'Dental & Tx Knowledgement', level: 1 }),
    ).toBeInTheDocument();
    const cards = within(await screen.findByRole('list', { name: 'Articles' })).getAllByRole(
      'listitem',
    );
    const [, secondCard] = cards;
    if (secondCard === undefined) throw new Error('expected two articles');
    expect(cards).toHaveLength(2);
    const second = within(secondCard);
    expect(second.getByRole('img', { name: 'Cover of Tooth Decay & You' })).toHaveAttribute(
      'src',
      `/api/content/images/${decayId}.svg`,
    );
    expect(second.getByRole('link', { name: 'Tooth Decay & You' })).toHaveAttribute(
      'href',
      `/dental-knowledge/${decayId}`,
    );
    const videos = second.getByRole('link', { name: /Videos about Tooth Decay & You on YouTube/ });
    expect(videos).toHaveAttribute(
      'href',
      'https://www.youtube.com/results?search_query=Tooth%20Decay%20%26%20You',
    );
    expect(videos).toHaveAttribute('target', '_blank');
    expect(videos).toHaveAttribute('rel', 'noopener noreferrer');
    // Knowledge calls carry no credential (docs/product/knowledge.md#knowledge-and-supplier-calls).
    expect(api.to('GET /api/dental-knowledge/')[0]?.headers.has('Authorization')).toBe(false);
  });

  it('shows a spinner while loading and a failure with Retry, not an empty state, when the call fails', async () => {
    const answer = deferred<Response>();
    signedIn({ 'GET /api/dental-knowledge/': () => answer.promise });
    renderRoute('/dental-knowledge');
    // Found, not re-checked: the route's own spinner may replace the lazy-load one at once.
    await screen.findByRole('status', { name: 'Loading' });
    answer.resolve(new Response('boom', { status: 502 }));
    expect(await screen.findByText('Loading failed', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.queryByText('Nothing to show right now.')).not.toBeInTheDocument();
  });
});

describe('Dental knowledge article', () => {
  it('fetches the markdown after the record and renders it below the title and date', async () => {
    const record = deferred<Response>();
    const api = signedIn({
      [`GET /api/dental-knowledge/${brushingId}/`]: () => record.promise,
      [`GET /api/dental-knowledge/${brushingId}/markdown/`]: () =>
        markdown('## Twice a day\n\nSee [the NHS](https://www.nhs.uk/).\n'),
    });
    renderRoute(`/dental-knowledge/${brushingId}`);
    // Found, not re-checked: the route's own spinner may replace the lazy-load one at once.
    await screen.findByRole('status', { name: 'Loading' });
    expect(api.to(`GET /api/dental-knowledge/${brushingId}/markdown/`)).toHaveLength(0);

    record.resolve(json(articleOf(brushingId, 'How to Brush')));
    expect(
      await screen.findByRole('heading', { name: 'How to Brush', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByText('Updated on 2026-11-22')).toBeInTheDocument();
    expect(
      await screen.findByRole('heading', { name: 'Twice a day', level: 2 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'the NHS' })).toHaveAttribute('target', '_blank');
    const markdownCall = api.to(`GET /api/dental-knowledge/${brushingId}/markdown/`)[0];
    expect(markdownCall?.headers.has('Authorization')).toBe(false);
    expect(
      api.to(`GET /api/dental-knowledge/${brushingId}/`)[0]?.headers.has('Authorization'),
    ).toBe(false);
  });

  it('loads the other article when the id in the address changes', async () => {
    signedIn({
      [`GET /api/dental-knowledge/${brushingId}/`]: () =>
        json(articleOf(brushingId, 'How to Brush')),
      [`GET /api/dental-knowledge/${brushingId}/markdown/`]: () => markdown('Brush well.\n'),
      [`GET /api/dental-knowledge/${decayId}/`]: () => json(articleOf(decayId, 'Tooth Decay')),
      [`GET /api/dental-knowledge/${decayId}/markdown/`]: () => markdown('Less sugar.\n'),
    });
    const { router } = renderRoute(`/dental-knowledge/${brushingId}`);
    expect(await screen.findByText('Brush well.')).toBeInTheDocument();
    await router.navigate(`/dental-knowledge/${decayId}`);
    expect(
      await screen.findByRole('heading', { name: 'Tooth Decay', level: 1 }),
    ).toBeInTheDocument();
    expect(await screen.findByText('Less sugar.')).toBeInTheDocument();
    expect(screen.queryByText('Brush well.')).not.toBeInTheDocument();
  });

  it('shows an empty page that leads back when the article does not exist', async () => {
    signedIn({
      [`GET /api/dental-knowledge/${decayId}/`]: () =>
        json({ type: 'about:blank', title: 'Not Found', status: 404, detail: 'Gone.' }, 404),
    });
    renderRoute(`/dental-knowledge/${decayId}`);
    expect(await screen.findByText('Nothing to show right now.')).toBeInTheDocument();
    expect(screen.queryByText('Gone.')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All articles' })).toHaveAttribute(
      'href',
      '/dental-knowledge',
    );
  });
});
