import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/** A content file that breaks docs/decisions/content-format.md; the start is refused. */
export class ContentError extends Error {
  override name = 'ContentError';
}

export interface ContentImage {
  sha256: string;
  mediaType: 'image/svg+xml';
  body: Buffer;
  /** The SVG's <title>: what the picture shows. */
  description: string;
}

export interface ContentPage {
  slug: string;
  title: string;
  cover: ContentImage;
  markdown: string;
}

export interface KnowledgeFile extends ContentPage {
  updatedOn: string;
}

export interface SupplierFile extends ContentPage {
  buyUrl: string | null;
  products: { id: string; name: string; priceCents: number }[];
}

export interface TopicFile {
  title: string;
  image: ContentImage;
  markdown: string;
}

/** Everything under the content folder, parsed and checked. */
export interface ContentSet {
  knowledge: KnowledgeFile[];
  suppliers: SupplierFile[];
  supplierTopic: TopicFile;
}

/** Covers are small drawings; anything bigger is a mistake, not a picture we drew. */
const maxImageBytes = 64 * 1024;
const slugPattern = /^[a-z0-9][a-z0-9-]*$/;

const imageName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]*\.svg$/, 'must be a file name ending in .svg in the covers folder');
const title = z.string().trim().min(1).max(200);

const knowledgeFrontMatter = z.strictObject({
  title,
  updated: z.iso.date('must be a quoted date, YYYY-MM-DD'),
  cover: imageName,
  sources: z.array(z.string().trim().min(1)).min(1),
});

/** What the shop sells on a page (docs/decisions/points-shop.md); prices in US cents. */
const productFrontMatter = z.strictObject({
  id: z.string().regex(slugPattern, 'must be lower-case letters, digits and -'),
  name: title,
  price_cents: z.number().int().min(100, 'must be at least 100 (one dollar)').max(100_000),
});

const supplierFrontMatter = z.strictObject({
  title,
  cover: imageName,
  buy_url: z.url({ protocol: /^https$/, error: 'must be an https:// address' }).optional(),
  products: z.array(productFrontMatter).max(20).default([]),
});

const topicFrontMatter = z.strictObject({ title, image: imageName });

const frontMatterPattern = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

function parseFrontMatter<T extends z.ZodType>(
  text: string,
  schema: T,
  file: string,
): { data: z.output<T>; markdown: string } {
  const match = frontMatterPattern.exec(text);
  if (match === null) throw new ContentError(`${file}: no front matter between --- lines.`);
  let yaml: unknown;
  try {
    yaml = parseYaml(match[1] ?? '');
  } catch (error) {
    throw new ContentError(`${file}: front matter is not valid YAML (${String(error)}).`);
  }
  const parsed = schema.safeParse(yaml);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const key = issue.path.join('.');
      return key === '' ? issue.message : `${key} ${issue.message}`;
    });
    throw new ContentError(`${file}: ${problems.join('; ')}.`);
  }
  const markdown = text.slice(match[0].length).trim();
  if (markdown === '') throw new ContentError(`${file}: the page has no body.`);
  return { data: parsed.data, markdown: `${markdown}\n` };
}

const entities: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

async function readImage(folder: string, name: string, file: string): Promise<ContentImage> {
  const imagePath = path.join(folder, name);
  const body = await readFile(imagePath).catch(() => {
    throw new ContentError(`${file}: its picture ${imagePath} cannot be read.`);
  });
  if (body.length > maxImageBytes) {
    throw new ContentError(`${imagePath}: over ${maxImageBytes / 1024} KB.`);
  }
  const svg = body.toString('utf8');
  if (!/^\s*<svg[\s>]/.test(svg)) throw new ContentError(`${imagePath}: not an SVG drawing.`);
  const description = /<title>([^<]+)<\/title>/.exec(svg)?.[1]?.trim();
  if (description === undefined || description === '') {
    throw new ContentError(`${imagePath}: has no <title> saying what it shows.`);
  }
  return {
    sha256: createHash('sha256').update(body).digest('hex'),
    mediaType: 'image/svg+xml',
    body,
    description: description.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => {
      return entities[name] ?? '';
    }),
  };
}

/** The pages of one folder: every `<slug>.md` except names starting with `_`, sorted by slug. */
async function pageFiles(folder: string): Promise<{ slug: string; file: string }[]> {
  const names = await readdir(folder).catch(() => {
    throw new ContentError(`${folder}: the content folder cannot be read.`);
  });
  return names
    .filter((name) => name.endsWith('.md') && !name.startsWith('_'))
    .sort()
    .map((name) => {
      const slug = name.slice(0, -'.md'.length);
      if (!slugPattern.test(slug)) {
        throw new ContentError(`${path.join(folder, name)}: use lower-case letters, digits and -.`);
      }
      return { slug, file: path.join(folder, name) };
    });
}

/** Reads content/knowledge and content/suppliers (docs/decisions/content-format.md). */
export async function readContent(contentDir: string): Promise<ContentSet> {
  const knowledgeDir = path.join(contentDir, 'knowledge');
  const suppliersDir = path.join(contentDir, 'suppliers');

  const knowledge = await Promise.all(
    (await pageFiles(knowledgeDir)).map(async ({ slug, file }) => {
      const { data, markdown } = parseFrontMatter(
        await readFile(file, 'utf8'),
        knowledgeFrontMatter,
        file,
      );
      const cover = await readImage(path.join(knowledgeDir, 'covers'), data.cover, file);
      return { slug, title: data.title, updatedOn: data.updated, cover, markdown };
    }),
  );

  const suppliers = await Promise.all(
    (await pageFiles(suppliersDir)).map(async ({ slug, file }) => {
      const { data, markdown } = parseFrontMatter(
        await readFile(file, 'utf8'),
        supplierFrontMatter,
        file,
      );
      const cover = await readImage(path.join(suppliersDir, 'covers'), data.cover, file);
      const products = data.products.map((entry) => ({
        id: entry.id,
        name: entry.name,
        priceCents: entry.price_cents,
      }));
      return { slug, title: data.title, buyUrl: data.buy_url ?? null, products, cover, markdown };
    }),
  );
  const productIds = suppliers.flatMap((page) => page.products.map((entry) => entry.id));
  const repeated = productIds.find((id, index) => productIds.indexOf(id) !== index);
  if (repeated !== undefined) {
    throw new ContentError(`${suppliersDir}: the product id ${repeated} is used twice.`);
  }

  const topicPath = path.join(suppliersDir, '_topic.md');
  const topicText = await readFile(topicPath, 'utf8').catch(() => {
    throw new ContentError(`${topicPath}: the supplier topic heading is missing.`);
  });
  const topic = parseFrontMatter(topicText, topicFrontMatter, topicPath);
  const supplierTopic = {
    title: topic.data.title,
    image: await readImage(path.join(suppliersDir, 'covers'), topic.data.image, topicPath),
    markdown: topic.markdown,
  };

  return { knowledge, suppliers, supplierTopic };
}
