import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dentalKnowledgeArticlePath,
  dentalKnowledgePath,
  knowledgeArticle,
  knowledgeList,
  knowledgeSearchTooLongMessage,
  markdownContentType,
  problemContentType,
  type KnowledgeListItem,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { knowledgeIdOf } from '../content/content-loader.service';
import { articleNotFoundMessage } from './dental-knowledge.service';

let t: TestApp;
let articles: KnowledgeListItem[];

beforeAll(async () => {
  t = await buildTestApp();
  const res = await t.request('GET', dentalKnowledgePath);
  articles = knowledgeList.parse(res.json());
});
afterAll(() => t.close());

function article(slug: string): KnowledgeListItem {
  const found = articles.find((entry) => entry.id === knowledgeIdOf(slug));
  if (found === undefined) throw new Error(`no article ${slug}`);
  return found;
}

describe('GET /api/dental-knowledge/', () => {
  it('lists every article in title order, without a credential', async () => {
    const res = await t.request('GET', dentalKnowledgePath);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    const list = knowledgeList.parse(res.json());
    expect(list.length).toBeGreaterThanOrEqual(12);
    const titles = list.map((entry) => entry.title);
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b, 'en')));
    expect(article('brushing')).toEqual({
      id: knowledgeIdOf('brushing'),
      title: 'How to Brush Your Teeth',
      update_date: '2026-11-22',
      cover_image: expect.stringMatching(/^\/api\/content\/images\/[0-9a-f]{64}\.svg$/) as string,
      cover_alt: 'A toothbrush cleaning a tooth',
      content_markdown: `${dentalKnowledgePath}${knowledgeIdOf('brushing')}/markdown/`,
    });
  });

  it('answers a logged-in member the same way', async () => {
    const { tokens } = await factories(t).loggedInMember();
    const res = await t.request('GET', dentalKnowledgePath, { token: tokens.access });
    expect(res.statusCode).toBe(200);
    expect(knowledgeList.parse(res.json())).toEqual(articles);
  });

  it('ignores a stale or forged credential instead of refusing', async () => {
    const res = await t.request('GET', dentalKnowledgePath, { token: 'not.a.token' });
    expect(res.statusCode).toBe(200);
  });
});

describe('GET /api/dental-knowledge/?q= (search)', () => {
  const search = async (q: string) => {
    const res = await t.request('GET', `${dentalKnowledgePath}?q=${encodeURIComponent(q)}`);
    expect(res.statusCode, res.body).toBe(200);
    return knowledgeList.parse(res.json());
  };

  it('answers the articles whose title or text holds every word, with a passage, in list order', async () => {
    const found = await search('Floss  GUMS');
    const ids = found.map((entry) => entry.id);
    expect(ids).toContain(article('flossing-and-interdental-cleaning').id);
    expect(ids).toEqual(articles.map((entry) => entry.id).filter((id) => ids.includes(id)));
    for (const entry of found) {
      const { excerpt, ...listed } = entry;
      expect(listed).toEqual(articles.find((candidate) => candidate.id === entry.id));
      expect(excerpt?.toLowerCase()).toMatch(/floss|gums/u);
    }
    // Every word is needed: adding one no article holds leaves nothing.
    expect(await search('floss zzzqx')).toEqual([]);
  });

  it('finds a word of the title alone and shows the text’s opening', async () => {
    const [first, ...rest] = await search('wisdom');
    expect([first?.id, ...rest.map((entry) => entry.id)]).toContain(article('wisdom-teeth').id);
    expect(first?.excerpt).toBeDefined();
  });

  it('searches the words a reader sees, not link addresses or markdown marks', async () => {
    expect(await search('nhs.uk')).toEqual([]);
    expect(await search('**twice')).toEqual([]);
  });

  it('answers the whole list for an empty search', async () => {
    expect(await search('   ')).toEqual(articles);
  });

  it('answers 400 for a search over 100 characters or with a control character', async () => {
    const long = await t.request('GET', `${dentalKnowledgePath}?q=${'a'.repeat(101)}`);
    expect(long.statusCode).toBe(400);
    expect(long.headers['content-type']).toContain(problemContentType);
    expect(long.json()).toMatchObject({ errors: { q: [knowledgeSearchTooLongMessage] } });
    const control = await t.request('GET', `${dentalKnowledgePath}?q=a%00b`);
    expect(control.statusCode).toBe(400);
  });
});

describe('GET /api/dental-knowledge/{knowledgeId}/', () => {
  it('answers title, updateDate and the markdown address without a credential', async () => {
    const { id, content_markdown: markdown } = article('wisdom-teeth');
    const res = await t.request('GET', dentalKnowledgeArticlePath(id));
    expect(res.statusCode).toBe(200);
    expect(knowledgeArticle.parse(res.json())).toEqual({
      id,
      title: article('wisdom-teeth').title,
      updateDate: article('wisdom-teeth').update_date,
      content_markdown: markdown,
    });
  });

  it('accepts the address without its trailing slash', async () => {
    const res = await t.request('GET', `${dentalKnowledgePath}${article('brushing').id}`);
    expect(res.statusCode).toBe(200);
  });

  it('answers 404 for an id that names no article', async () => {
    const res = await t.request('GET', dentalKnowledgeArticlePath(knowledgeIdOf('no-such-page')));
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain(problemContentType);
    expect(res.json()).toMatchObject({ status: 404, detail: articleNotFoundMessage });
  });

  it.each(['not-a-uuid', '1234', "' OR 1=1 --"])(
    'answers 400 for the malformed id %j',
    async (id) => {
      const res = await t.request('GET', dentalKnowledgeArticlePath(id));
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toContain(problemContentType);
      expect(res.json()).toMatchObject({
        status: 400,
        errors: { knowledgeId: ['Enter a valid id.'] },
      });
    },
  );
});

describe('the markdown document', () => {
  it('is served as text/markdown with an ETag, without a credential', async () => {
    const res = await t.request('GET', article('brushing').content_markdown);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(markdownContentType);
    expect(res.headers['cache-control']).toBe('public, no-cache');
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    // The body without its front matter: it starts with the text, and it names its sources.
    expect(res.body.startsWith('Brushing is the single most useful thing')).toBe(true);
    expect(res.body).toContain('## When to see a dentist');
    expect(res.body).toContain('## Sources');
  });

  it('answers 304 with no body when the browser already has it', async () => {
    const url = article('brushing').content_markdown;
    const first = await t.request('GET', url);
    const etag = String(first.headers.etag);
    const again = await t.request('GET', url, { headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);

    const otherTag = await t.request('GET', url, { headers: { 'if-none-match': '"stale"' } });
    expect(otherTag.statusCode).toBe(200);
    expect(otherTag.body).toBe(first.body);
  });

  it('differs between articles, and so do the tags', async () => {
    const a = await t.request('GET', article('brushing').content_markdown);
    const b = await t.request('GET', article('tooth-decay').content_markdown);
    expect(a.body).not.toBe(b.body);
    expect(a.headers.etag).not.toBe(b.headers.etag);
  });

  it('answers 404 for an unknown article and 400 for a malformed id', async () => {
    const unknown = await t.request(
      'GET',
      `${dentalKnowledgeArticlePath(knowledgeIdOf('no-such-page'))}markdown/`,
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain(problemContentType);
    const malformed = await t.request('GET', `${dentalKnowledgePath}nope/markdown/`);
    expect(malformed.statusCode).toBe(400);
  });
});
