import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { brokenLinks, decisionIndexProblems } from './doc-links';

const repository = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('the documentation holds together', () => {
  // It parses every markdown page and source file of the repository: about 3 s alone, several
  // times that beside the rest of the unit tier on two cores.
  it(
    'every relative link in the markdown and every docs/ path in the code resolves',
    {
      timeout: 60_000,
    },
    () => {
      expect(brokenLinks(repository)).toEqual([]);
    },
  );

  it('the decisions index has one well-formed row per record', () => {
    expect(decisionIndexProblems(repository)).toEqual([]);
  });
});

describe('the link check', () => {
  const root = mkdtempSync(join(tmpdir(), 'doc-links-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  write(
    'README.md',
    [
      '# Example',
      '',
      'Read [the guide](docs/guide.md#set-up), [its `--flag`](docs/guide.md#the---flag) and',
      '[the rest](docs/guide.md#rest-1) and [the start](#example) and the [site](https://x.test).',
      'Broken: [gone](docs/gone.md), [no anchor](docs/guide.md#nowhere), [out](../elsewhere.md).',
      'Named in prose: docs/guide.md#set-up, docs/missing.md.',
    ].join('\n'),
  );
  write('docs/guide.md', '# Guide\n\n## Set up\n\n## The `--flag`\n\n## Rest\n\n## Rest\n');
  write(
    'apps/api/src/example.ts',
    [
      '// Why (docs/guide.md#set-up).',
      '// Broken (docs/decisions/old.md).',
      "export const text = 'a string, not a comment: docs/not-checked.md';",
      '/** A block comment',
      ' *  (docs/product/app.md#flow). */',
      'export const next = 1;',
    ].join('\n'),
  );
  write(
    'docs/decisions/README.md',
    [
      '| Record | Subject | Date | Status |',
      '| --- | --- | --- | --- |',
      '| [kept.md](kept.md) | Kept | 2026-11-28 | accepted |',
      '| [kept.md](kept.md) | Kept again | 2026-11-28 | accepted |',
      '| [shifted.md](shifted.md) | Shifted | | 2026-11-28 | accepted |',
      '| [ghost.md](ghost.md) | A record that is gone | 2026-11-28 | accepted |',
      '| kept.md | Not a link | 2026-11-28 | accepted |',
    ].join('\n'),
  );
  for (const record of ['kept.md', 'shifted.md', 'unlisted.md'])
    write(`docs/decisions/${record}`, '# A\n');

  it('names the file, the line and the link of each broken one', () => {
    expect(brokenLinks(root)).toEqual([
      'README.md:5: docs/gone.md: docs/gone.md does not exist',
      'README.md:5: docs/guide.md#nowhere: docs/guide.md has no heading with the anchor #nowhere',
      'README.md:5: ../elsewhere.md: ../elsewhere.md does not exist',
      'README.md:6: docs/missing.md: docs/missing.md does not exist',
      'docs/decisions/README.md:6: ghost.md: docs/decisions/ghost.md does not exist',
      'apps/api/src/example.ts:2: docs/decisions/old.md: docs/decisions/old.md does not exist',
      'apps/api/src/example.ts:5: docs/product/app.md#flow: docs/product/app.md does not exist',
    ]);
  });

  it('names each missing, repeated, gone or malformed row of the decisions index', () => {
    expect(decisionIndexProblems(root)).toEqual([
      'docs/decisions/README.md:4: kept.md is listed already on line 3',
      'docs/decisions/README.md:5: 5 cells in a table of 4 columns',
      'docs/decisions/README.md:7: the first cell must be a link [record.md](record.md)',
      'docs/decisions/README.md: unlisted.md has no row in the index',
      'docs/decisions/README.md:6: ghost.md does not exist',
    ]);
  });
});
