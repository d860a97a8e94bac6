import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import GithubSlugger from 'github-slugger';
import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { toString } from 'mdast-util-to-string';
import { gfm } from 'micromark-extension-gfm';
import ts from 'typescript';

/**
 * Checks that the repository's documentation holds together: every relative link in its markdown
 * and every `docs/….md` path in a source file's comments names a file that exists and, with an
 * anchor, a heading of that file (by GitHub's slug); and the decisions index has one well-formed
 * row per record. Each problem is one line naming the file, the line and the link.
 */

/** Folders never read: installed, built, generated or run-time output. */
const skippedFolders = new Set([
  '.git',
  'node_modules',
  'dist',
  'data',
  'coverage',
  'test-results',
  'playwright-report',
  '.test-artifacts',
  // Knowledge and supplier pages are app content: their links are the app's routes.
  'content',
]);

const sourceFolders = ['apps', 'packages', 'scripts', 'bench', 'e2e'];
const sourceFile = /\.(?:ts|tsx|mts|js|mjs|cjs)$/;
/** A repository path to a markdown page under docs/, with an optional anchor, as comments write it. */
const docsPath = /\bdocs\/[\w./-]*?\.md(?:#[\w-]+)?/g;
/** A URL with a scheme (`https:`, `mailto:`) or protocol-relative: not a file of ours. */
const external = /^(?:[a-z][a-z\d+.-]*:|\/\/)/i;

function walk(root: string, folder: string, keep: (path: string) => boolean): string[] {
  const folderPath = join(root, folder);
  if (!existsSync(folderPath)) return [];
  return readdirSync(folderPath, { withFileTypes: true }).flatMap((entry) => {
    const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) return skippedFolders.has(entry.name) ? [] : walk(root, path, keep);
    return entry.isFile() && keep(path) ? [path] : [];
  });
}

function parse(text: string): Root {
  return fromMarkdown(text, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
}

function visit(node: Nodes, onNode: (node: Nodes) => void): void {
  onNode(node);
  if ('children' in node) for (const child of node.children) visit(child, onNode);
}

/** The anchors of a markdown page's headings, as GitHub makes them (repeats get -1, -2, …). */
function headingSlugs(tree: Root): Set<string> {
  const slugger = new GithubSlugger();
  const slugs = new Set<string>();
  visit(tree, (node) => {
    if (node.type === 'heading') slugs.add(slugger.slug(toString(node)));
  });
  return slugs;
}

/** The comments of a TypeScript or JavaScript file, each with the line it starts on. Comments only:
 *  strings may hold paths that are not references (a test's own sample pages). */
function comments(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const seen = new Map<number, string>();
  const collect = (ranges: ts.CommentRange[] | undefined) => {
    for (const range of ranges ?? []) seen.set(range.pos, text.slice(range.pos, range.end));
  };
  const visitNode = (node: ts.Node) => {
    collect(ts.getLeadingCommentRanges(text, node.getFullStart()));
    collect(ts.getTrailingCommentRanges(text, node.getEnd()));
    node.getChildren(source).forEach(visitNode);
  };
  visitNode(source);
  return [...seen].map(([pos, comment]) => ({
    line: source.getLineAndCharacterOfPosition(pos).line + 1,
    text: comment,
  }));
}

/** Each `docs/….md` path in a text, with its line counted from the text's first line. */
function docsMentions(text: string, firstLine: number): { line: number; mention: string }[] {
  return [...text.matchAll(docsPath)].map((match) => ({
    line: firstLine + text.slice(0, match.index).split('\n').length - 1,
    mention: match[0],
  }));
}

/** Reads each markdown page once, however many links point into it. */
class Pages {
  private readonly slugs = new Map<string, Set<string>>();

  constructor(private readonly root: string) {}

  anchors(path: string): Set<string> {
    let slugs = this.slugs.get(path);
    if (slugs === undefined) {
      slugs = headingSlugs(parse(readFileSync(join(this.root, path), 'utf8')));
      this.slugs.set(path, slugs);
    }
    return slugs;
  }

  /** Why `target` (a repository path, with an optional `#anchor`) does not resolve, or null. */
  problem(target: string): string | null {
    const hash = target.indexOf('#');
    const path = hash === -1 ? target : target.slice(0, hash);
    const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
    if (path.startsWith('..') || !existsSync(join(this.root, path))) {
      return `${path} does not exist`;
    }
    if (anchor !== null && path.endsWith('.md') && !this.anchors(path).has(anchor)) {
      return `${path} has no heading with the anchor #${anchor}`;
    }
    return null;
  }
}

/** Every broken link, one line each: `file:line: link: why`. */
export function brokenLinks(root: string): string[] {
  const pages = new Pages(root);
  const problems: string[] = [];
  const report = (file: string, line: number, link: string, target: string) => {
    const problem = pages.problem(target);
    if (problem !== null) problems.push(`${file}:${String(line)}: ${link}: ${problem}`);
  };

  const markdown = walk(root, '', (path) => path.endsWith('.md'));
  for (const file of markdown) {
    const tree = parse(readFileSync(join(root, file), 'utf8'));
    visit(tree, (node) => {
      const line = node.position?.start.line ?? 1;
      if (node.type === 'link' || node.type === 'image' || node.type === 'definition') {
        if (node.url === '' || external.test(node.url)) return;
        const [path = '', anchor] = node.url.split('#', 2);
        const target =
          path === ''
            ? file
            : relative(root, resolve(root, dirname(file), decodeURIComponent(path)));
        report(file, line, node.url, anchor === undefined ? target : `${target}#${anchor}`);
      } else if (node.type === 'text' || node.type === 'inlineCode') {
        // Prose names pages by their repository path too ("see docs/decisions/job-queue.md").
        for (const found of docsMentions(node.value, line)) {
          report(file, found.line, found.mention, found.mention);
        }
      }
    });
  }

  for (const file of sourceFolders.flatMap((folder) =>
    walk(root, folder, (path) => sourceFile.test(path)),
  )) {
    const text = readFileSync(join(root, file), 'utf8');
    // Parsing is the slow part, and most files name no page at all.
    if (!text.includes('docs/')) continue;
    for (const comment of comments(file, text)) {
      for (const found of docsMentions(comment.text, comment.line)) {
        report(file, found.line, found.mention, found.mention);
      }
    }
  }
  return problems;
}

const decisions = 'docs/decisions';
const index = `${decisions}/README.md`;
const date = /^\d{4}-\d{2}-\d{2}$/;

/** What is wrong with the decisions index: a record without a row, a row that is not
 *  `| [record.md](record.md) | subject | date | status |`, or a record listed twice. */
export function decisionIndexProblems(root: string): string[] {
  const tree = parse(readFileSync(join(root, index), 'utf8'));
  const table = tree.children.find((node) => node.type === 'table');
  if (table === undefined) return [`${index}: no table`];
  const problems: string[] = [];
  const listed = new Map<string, number>();
  const [header, ...rows] = table.children;
  const columns = header?.children.length ?? 0;
  for (const row of rows) {
    const line = row.position?.start.line ?? 1;
    const at = `${index}:${String(line)}`;
    const link = row.children[0]?.children.find((node) => node.type === 'link');
    const record = link?.url ?? '';
    if (link === undefined || toString(link) !== record || record.includes('/')) {
      problems.push(`${at}: the first cell must be a link [record.md](record.md)`);
      continue;
    }
    const earlier = listed.get(record);
    if (earlier !== undefined) {
      problems.push(`${at}: ${record} is listed already on line ${String(earlier)}`);
    }
    listed.set(record, line);
    const cells = row.children.map((cell) => toString(cell).trim());
    if (cells.length !== columns) {
      problems.push(
        `${at}: ${String(cells.length)} cells in a table of ${String(columns)} columns`,
      );
      continue;
    }
    const [, subject = '', recordDate = '', status = ''] = cells;
    if (subject === '' || !date.test(recordDate) || status === '') {
      problems.push(`${at}: ${record}: needs a subject, a date (YYYY-MM-DD) and a status`);
    }
  }
  const records = readdirSync(join(root, decisions)).filter(
    (name) => name.endsWith('.md') && name !== 'README.md',
  );
  for (const record of records) {
    if (!listed.has(record)) problems.push(`${index}: ${record} has no row in the index`);
  }
  for (const [record, line] of listed) {
    if (!records.includes(record))
      problems.push(`${index}:${String(line)}: ${record} does not exist`);
  }
  return problems;
}
