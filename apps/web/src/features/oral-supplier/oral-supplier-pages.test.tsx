import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Supplier, SupplierTopic } from '@dental/contracts';
import { sessionStore } from '#web/lib/session-store';
import { json, stubFetch, testAccount, type Handler } from '#web/test/fetch-stub';
import { renderRoute } from '#web/test/render-route';

const flosserId = '5b0f3c2e-1d4a-5e6f-8a7b-9c0d1e2f3a4b';
const scraperId = '7c1e4d3f-2e5b-5f70-9b8c-0d1e2f3a4b5c';

const topic: SupplierTopic = {
  title: 'Oral Hygiene Suppliers',
  image: '/api/content/images/topic.svg',
  image_alt: 'A toothbrush and floss',
  content_markdown: '/api/oral-supplier/topic/markdown/',
};

const supplierOf = (
  id: string,
  title: string,
  buyUrl: string | null,
  products: Supplier['products'] = [],
): Supplier => ({
  id,
  title,
  cover_image: `/api/content/images/${id}.svg`,
  cover_alt: `A picture of ${title}`,
  content_markdown: `/api/oral-supplier/${id}/markdown/`,
  buy_url: buyUrl,
  products,
});

const markdown = (text: string): Response =>
  new Response(text, { headers: { 'Content-Type': 'text/markdown; charset=utf-8' } });

function signedIn(handlers: Record<string, Handler>) {
  sessionStore.save({ access: 'access-1', refresh: 'refresh-1' });
  return stubFetch({ 'GET /api/account/': () => json(testAccount), ...handlers });
}

describe('Oral hygiene suppliers list', () => {
  it('shows the topic heading and picture, then a card per supplier linking to its id', async () => {
    const api = signedIn({
      'GET /api/oral-supplier/topic/': () => json(topic),
      'GET /api/oral-supplier/topic/markdown/': () => markdown('We sell nothing.\n'),
      'GET /api/oral-supplier/': () =>
        json([
          { id: flosserId, title: 'Water Flossers', cover_image: '/f.svg', cover_alt: 'x' },
          { id: scraperId, title: 'Tongue Cleaners', cover_image: '/t.svg', cover_alt: 'y' },
        ]),
    });
    renderRoute('/oral-supplier');
    expect(
      await screen.findByRole('heading', { name: 'Oral Hygiene Suppliers', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'A toothbrush and floss' })).toHaveAttribute(
      'src',
      topic.image,
    );
    expect(await screen.findByText('We sell nothing.')).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Suppliers' });
    const card = within(list).getByRole('link', { name: 'Water Flossers' });
    expect(card).toHaveAttribute('href', `/oral-supplier/${flosserId}`);
    expect(within(card).getByRole('presentation')).toHaveAttribute('src', '/f.svg');
    // Supplier records need the bearer token; their markdown does not
    // (docs/product/knowledge.md#knowledge-and-supplier-calls).
    expect(api.to('GET /api/oral-supplier/')[0]?.headers.get('Authorization')).toBe(
      'Bearer access-1',
    );
    expect(api.to('GET /api/oral-supplier/topic/markdown/')[0]?.headers.has('Authorization')).toBe(
      false,
    );
  });

  it('keeps the section’s name as heading and shows a failure with Retry when the calls fail', async () => {
    const failure = () => new Response('down', { status: 500 });
    signedIn({ 'GET /api/oral-supplier/topic/': failure, 'GET /api/oral-supplier/': failure });
    renderRoute('/oral-supplier');
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Oral Hyglene Suppliers Knowledgement', level: 1 },
        { timeout: 15_000 },
      ),
    ).toBeInTheDocument();
    expect(await screen.findByText('Loading failed', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});

describe('Oral hygiene supplier page', () => {
  it('shows title, cover, body and products, with Buy at the bottom opening the order form', async () => {
    signedIn({
      [`GET /api/oral-supplier/${flosserId}/`]: () =>
        json(
          supplierOf(flosserId, 'Water Flossers', 'https://www.waterpik.com/', [
            { id: 'cordless-water-flosser', name: 'Cordless water flosser', price_cents: 5999 },
          ]),
        ),
      [`GET /api/oral-supplier/${flosserId}/markdown/`]: () => markdown('## Types\n\nCordless.\n'),
    });
    renderRoute(`/oral-supplier/${flosserId}`);
    expect(
      await screen.findByRole('heading', { name: 'Water Flossers', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'A picture of Water Flossers' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Types', level: 2 })).toBeInTheDocument();
    expect(screen.getByText('Cordless water flosser')).toBeInTheDocument();
    expect(screen.getByText('$59.99')).toBeInTheDocument();
    const buy = screen.getByRole('link', { name: 'Buy' });
    expect(buy).toHaveAttribute('href', `/oral-supplier/${flosserId}/order`);
    const site = screen.getByRole('link', { name: 'Manufacturer’s website' });
    expect(site).toHaveAttribute('href', 'https://www.waterpik.com/');
    expect(site).toHaveAttribute('target', '_blank');
    expect(site).toHaveAttribute('rel', 'noopener noreferrer');
    // At the bottom: after the body.
    const body = screen.getByText('Cordless.');
    expect(body.compareDocumentPosition(buy) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('leaves Buy and the manufacturer’s link out when the page sells nothing and names no site', async () => {
    signedIn({
      [`GET /api/oral-supplier/${scraperId}/`]: () =>
        json(supplierOf(scraperId, 'Tongue Cleaners', null)),
      [`GET /api/oral-supplier/${scraperId}/markdown/`]: () => markdown('Scrape gently.\n'),
    });
    renderRoute(`/oral-supplier/${scraperId}`);
    expect(await screen.findByText('Scrape gently.')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Buy' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Manufacturer’s website' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All suppliers' })).toHaveAttribute(
      'href',
      '/oral-supplier',
    );
  });
});
