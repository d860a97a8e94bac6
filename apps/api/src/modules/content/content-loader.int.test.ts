import { cp, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  dentalKnowledgePath,
  knowledgeArticle,
  knowledgeList,
  oralSupplierPath,
  supplierList,
} from '@dental/contracts';
import { buildTestApp, type TestApp } from '#api-test/build-test-app';
import { factories } from '#api-test/factories';
import { imageNotFoundMessage } from './content.routes';
import { ContentError } from './content-files';
import { knowledgeIdOf, supplierIdOf } from './content-loader.service';

const repositoryContent = path.resolve(import.meta.dirname, '../../../../../content');

let t: TestApp;
let contentDir: string;
let token: string;

/** A private copy of the real content folder that a test may edit. */
async function freshContentCopy(): Promise<void> {
  await rm(contentDir, { recursive: true, force: true });
  await cp(repositoryContent, contentDir, { recursive: true });
}

async function knowledge() {
  const res = await t.request('GET', dentalKnowledgePath);
  expect(res.statusCode).toBe(200);
  return knowledgeList.parse(res.json());
}

async function suppliers() {
  const res = await t.request('GET', oralSupplierPath, { token });
  expect(res.statusCode).toBe(200);
  return supplierList.parse(res.json());
}

async function editFile(relative: string, edit: (text: string) => string): Promise<void> {
  const file = path.join(contentDir, relative);
  await writeFile(file, edit(await readFile(file, 'utf8')));
}

beforeAll(async () => {
  contentDir = path.join(await mkdtemp(path.join(os.tmpdir(), 'dental-content-')), 'content');
  await freshContentCopy();
  t = await buildTestApp({ env: { CONTENT_DIR: contentDir } });
  token = (await factories(t).loggedInMember()).tokens.access;
});
afterAll(async () => {
  await t.close();
  await rm(path.dirname(contentDir), { recursive: true, force: true });
});
beforeEach(async () => {
  await freshContentCopy();
  await t.services.contentLoader.load(contentDir);
});

describe('loading content at start', () => {
  it('loads every article and supplier page of the repository with its pictures', async () => {
    const summary = await t.services.contentLoader.load(repositoryContent);
    expect(summary.knowledge).toBeGreaterThanOrEqual(12);
    expect(summary.suppliers).toBeGreaterThanOrEqual(6);
    // Every page has its own cover, and the topic has one more.
    expect(summary.images).toBe(summary.knowledge + summary.suppliers + 1);
    expect(await knowledge()).toHaveLength(summary.knowledge);
    expect(await suppliers()).toHaveLength(summary.suppliers);
  });

  it('gives the same ids and counts when it runs again (a restart)', async () => {
    const [articlesBefore, suppliersBefore] = [await knowledge(), await suppliers()];
    await t.services.contentLoader.load(contentDir);
    await t.services.contentLoader.load(contentDir);
    expect(await knowledge()).toEqual(articlesBefore);
    expect(await suppliers()).toEqual(suppliersBefore);
  });

  it('lets processes that start together load at the same time', async () => {
    const before = await knowledge();
    const loads = await Promise.all([1, 2, 3].map(() => t.services.contentLoader.load(contentDir)));
    expect(new Set(loads.map((summary) => JSON.stringify(summary))).size).toBe(1);
    expect(await knowledge()).toEqual(before);
  });

  it('derives ids from the file names, the same on every database', async () => {
    const brushing = (await knowledge()).find((article) => article.title.includes('Brush'));
    expect(brushing?.id).toBe(knowledgeIdOf('brushing'));
    const ids = (await suppliers()).map((entry) => entry.id);
    expect(ids).toContain(supplierIdOf('tongue-cleaners'));
    // A knowledge article and a supplier page with the same slug still differ.
    expect(knowledgeIdOf('brushing')).not.toBe(supplierIdOf('brushing'));
  });

  it('shows an edited file after the next load, under the same id', async () => {
    await editFile('knowledge/brushing.md', (text) =>
      text
        .replace(/^title: .*$/m, 'title: Brushing Well')
        .replace(/^updated: .*$/m, "updated: '2027-01-15'")
        .concat('\nOne more paragraph.\n'),
    );
    await t.services.contentLoader.load(contentDir);
    const id = knowledgeIdOf('brushing');
    const res = await t.request('GET', `${dentalKnowledgePath}${id}/`);
    expect(knowledgeArticle.parse(res.json())).toMatchObject({
      id,
      title: 'Brushing Well',
      updateDate: '2027-01-15',
    });
    const markdown = await t.request('GET', `${dentalKnowledgePath}${id}/markdown/`);
    expect(markdown.body.trimEnd().endsWith('One more paragraph.')).toBe(true);
  });

  it('serves a changed cover under a new address and forgets the old one', async () => {
    const before = (await knowledge()).find((a) => a.id === knowledgeIdOf('tooth-decay'));
    await editFile('knowledge/covers/tooth-decay.svg', (svg) =>
      svg.replace(/<title>[^<]*<\/title>/, '<title>A repaired tooth</title>'),
    );
    await t.services.contentLoader.load(contentDir);
    const after = (await knowledge()).find((a) => a.id === knowledgeIdOf('tooth-decay'));
    expect(after?.cover_alt).toBe('A repaired tooth');
    expect(after?.cover_image).not.toBe(before?.cover_image);
    expect((await t.request('GET', after?.cover_image ?? '')).statusCode).toBe(200);
    const old = await t.request('GET', before?.cover_image ?? '');
    expect(old.statusCode).toBe(404);
    expect(old.json()).toMatchObject({ detail: imageNotFoundMessage });
  });

  it('removes the pages of deleted files and adds new ones', async () => {
    await unlink(path.join(contentDir, 'knowledge/wisdom-teeth.md'));
    await unlink(path.join(contentDir, 'suppliers/mouthwash.md'));
    await cp(
      path.join(contentDir, 'knowledge/gum-disease.md'),
      path.join(contentDir, 'knowledge/gum-care.md'),
    );
    const countBefore = (await knowledge()).length;
    await t.services.contentLoader.load(contentDir);

    const articles = await knowledge();
    expect(articles).toHaveLength(countBefore);
    expect(articles.map((a) => a.id)).not.toContain(knowledgeIdOf('wisdom-teeth'));
    expect(articles.map((a) => a.id)).toContain(knowledgeIdOf('gum-care'));
    const gone = await t.request('GET', `${dentalKnowledgePath}${knowledgeIdOf('wisdom-teeth')}/`);
    expect(gone.statusCode).toBe(404);
    expect((await suppliers()).map((s) => s.id)).not.toContain(supplierIdOf('mouthwash'));
  });

  it.each([
    [
      'a missing title',
      'knowledge/brushing.md',
      (text: string) => text.replace(/^title: .*\n/m, ''),
    ],
    [
      'an unquoted date',
      'knowledge/brushing.md',
      (text: string) => text.replace(/^updated: .*$/m, 'updated: last week'),
    ],
    [
      'a cover outside the covers folder',
      'knowledge/brushing.md',
      (text: string) => text.replace(/^cover: .*$/m, 'cover: ../../secrets.svg'),
    ],
    [
      'a buy link that is not https',
      'suppliers/mouthwash.md',
      (text: string) => text.replace(/^title: .*$/m, '$&\nbuy_url: http://shop.example/'),
    ],
    [
      'an unknown key',
      'suppliers/mouthwash.md',
      (text: string) => text.replace(/^title: .*$/m, '$&\nprice: 3'),
    ],
    ['no front matter', 'suppliers/_topic.md', (text: string) => text.replace(/^---/, '')],
  ])('refuses %s and leaves the loaded content as it was', async (_case, file, edit) => {
    const before = await knowledge();
    await editFile(file, edit);
    await expect(t.services.contentLoader.load(contentDir)).rejects.toThrow(ContentError);
    await expect(t.services.contentLoader.load(contentDir)).rejects.toThrow(file);
    expect(await knowledge()).toEqual(before);
  });

  it('refuses a page whose cover does not exist', async () => {
    await unlink(path.join(contentDir, 'suppliers/covers/water-flossers.svg'));
    await expect(t.services.contentLoader.load(contentDir)).rejects.toThrow(
      /water-flossers\.md: its picture .* cannot be read/,
    );
  });
});

describe('cover pictures', () => {
  it('are served as sandboxed SVG, cached for good under their hash', async () => {
    const [article] = await knowledge();
    const res = await t.request('GET', article?.cover_image ?? '');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'.*sandbox/);
    expect(res.body).toMatch(/^<svg /);
    expect(article?.cover_image).toMatch(/^\/api\/content\/images\/[0-9a-f]{64}\.svg$/);

    const etag = res.headers.etag;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await t.request('GET', article?.cover_image ?? '', {
      headers: { 'if-none-match': String(etag) },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('need no credential', async () => {
    const [entry] = await suppliers();
    expect((await t.request('GET', entry?.cover_image ?? '')).statusCode).toBe(200);
  });

  it('answer 404 for an unknown hash and 400 for an address that is not a picture', async () => {
    const unknown = await t.request('GET', `/api/content/images/${'0'.repeat(64)}.svg`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers['content-type']).toContain('application/problem+json');
    const malformed = await t.request('GET', '/api/content/images/..%2F..%2Fsecrets.svg');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.headers['content-type']).toContain('application/problem+json');
  });
});
