import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  markdownContentType,
  oralSupplierItemPath,
  oralSupplierPath,
  oralSupplierTopicPath,
  problemContentType,
  supplier,
  supplierList,
  supplierTopic,
  type SupplierListItem,
} from '@dental/contracts';
import { loginRequiredMessage, sessionExpiredMessage } from '#api/plugins/auth';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { supplierIdOf } from '../content/content-loader.service';
import { supplierNotFoundMessage } from './oral-supplier.service';

let t: TestApp;
let token: string;
let suppliers: SupplierListItem[];

beforeAll(async () => {
  t = await buildTestApp();
  token = (await factories(t).loggedInMember()).tokens.access;
  suppliers = supplierList.parse((await t.request('GET', oralSupplierPath, { token })).json());
});
afterAll(() => t.close());

const idOf = supplierIdOf;

describe('the bearer token', () => {
  it.each([
    ['the list', oralSupplierPath],
    ['the topic', oralSupplierTopicPath],
    ['a supplier', oralSupplierItemPath(supplierIdOf('mouthwash'))],
    ['a malformed supplier id', oralSupplierItemPath('nope')],
  ])('is required for %s: 401 without it', async (_what, url) => {
    const res = await t.request('GET', url);
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toContain(problemContentType);
    expect(res.json()).toMatchObject({ detail: loginRequiredMessage });
  });

  it('is refused when it is not valid', async () => {
    const res = await t.request('GET', oralSupplierPath, { token: 'forged.token.value' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ detail: sessionExpiredMessage });
  });
});

describe('GET /api/oral-supplier/', () => {
  it('lists id, title and cover of every supplier page in title order', () => {
    expect(suppliers.length).toBeGreaterThanOrEqual(6);
    const titles = suppliers.map((entry) => entry.title);
    expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b, 'en')));
    expect(suppliers.find((entry) => entry.id === idOf('water-flossers'))).toEqual({
      id: idOf('water-flossers'),
      title: 'Water Flossers',
      cover_image: expect.stringMatching(/^\/api\/content\/images\/[0-9a-f]{64}\.svg$/) as string,
      cover_alt: 'A water flosser sending a jet of water',
    });
  });
});

describe('GET /api/oral-supplier/topic/', () => {
  it('answers the heading, its picture and an introduction', async () => {
    const res = await t.request('GET', oralSupplierTopicPath, { token });
    expect(res.statusCode).toBe(200);
    const topic = supplierTopic.parse(res.json());
    expect(topic).toMatchObject({
      title: 'Oral Hygiene Suppliers',
      image_alt: 'A toothbrush, a tube of toothpaste and floss',
      content_markdown: `${oralSupplierTopicPath}markdown/`,
    });
    expect((await t.request('GET', topic.image)).headers['content-type']).toBe('image/svg+xml');
    const intro = await t.request('GET', topic.content_markdown);
    expect(intro.statusCode).toBe(200);
    expect(intro.headers['content-type']).toBe(markdownContentType);
    expect(intro.body).toContain('we earn no commission');
  });
});

describe('GET /api/oral-supplier/{supplierId}/', () => {
  it('answers title, cover, markdown address, the manufacturer’s page and its products', async () => {
    const res = await t.request('GET', oralSupplierItemPath(idOf('childrens-oral-care')), {
      token,
    });
    expect(res.statusCode).toBe(200);
    expect(supplier.parse(res.json())).toEqual({
      id: idOf('childrens-oral-care'),
      title: "Children's Oral Care",
      cover_image: expect.stringMatching(/^\/api\/content\/images\//) as string,
      cover_alt: 'A child-sized toothbrush beside a small smiling tooth',
      content_markdown: `${oralSupplierPath}${idOf('childrens-oral-care')}/markdown/`,
      buy_url: 'https://www.oralb.com/',
      products: [
        {
          id: 'kids-soft-toothbrush-2-pack',
          name: 'Children’s soft toothbrush, 2-pack',
          price_cents: 699,
        },
        {
          id: 'kids-fluoride-toothpaste',
          name: 'Children’s fluoride toothpaste, 1,000 ppm',
          price_cents: 549,
        },
      ],
    });
  });

  it('answers buy_url null for a page that names no place to buy', async () => {
    const res = await t.request('GET', oralSupplierItemPath(idOf('tongue-cleaners')), { token });
    expect(supplier.parse(res.json()).buy_url).toBeNull();
  });

  it('answers 404 for an id that names no supplier page', async () => {
    const res = await t.request('GET', oralSupplierItemPath(idOf('no-such-page')), { token });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain(problemContentType);
    expect(res.json()).toMatchObject({ detail: supplierNotFoundMessage });
  });

  it('answers 400 for a malformed id', async () => {
    const res = await t.request('GET', oralSupplierItemPath('nope'), { token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ errors: { supplierId: ['Enter a valid id.'] } });
  });
});

describe('a supplier page’s markdown', () => {
  it('is served without a credential, as text/markdown with an ETag and 304', async () => {
    const url = `${oralSupplierPath}${idOf('mouthwash')}/markdown/`;
    const res = await t.request('GET', url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(markdownContentType);
    expect(res.body).toContain('## Choosing with confidence');
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await t.request('GET', url, { headers: { 'if-none-match': `W/${etag}` } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('answers 404 for an unknown page and 400 for a malformed id', async () => {
    const unknown = await t.request('GET', `${oralSupplierPath}${idOf('nope')}/markdown/`);
    expect(unknown.statusCode).toBe(404);
    const malformed = await t.request('GET', `${oralSupplierPath}nope/markdown/`);
    expect(malformed.statusCode).toBe(400);
  });
});
