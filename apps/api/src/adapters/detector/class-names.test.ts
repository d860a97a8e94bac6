import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNamesLiteral, readClassNames } from './class-names';

describe('parseNamesLiteral', () => {
  it.each([
    { literal: "{0: 'caries'}", names: ['caries'] },
    {
      literal: "{0: 'Cavity', 1: 'Fillings', 2: 'Impacted Tooth'}",
      names: ['Cavity', 'Fillings', 'Impacted Tooth'],
    },
    { literal: '{1: "b", 0: "a"}', names: ['a', 'b'] },
    { literal: '{0: \'it\\\'s\', 1: "say \\"hi\\""}', names: ["it's", 'say "hi"'] },
    { literal: "['x', 'y']", names: ['x', 'y'] },
  ])('$literal', ({ literal, names }) => {
    expect(parseNamesLiteral(literal)).toEqual(names);
  });

  it.each(["{0: 'a', 2: 'c'}", '{}', 'caries', "{'a': 0}"])('refuses %s', (literal) => {
    expect(() => parseNamesLiteral(literal)).toThrow();
  });
});

describe('readClassNames', () => {
  const metadata = new Map([['names', "{0: 'from metadata'}"]]);

  it.each([
    { name: 'a list in labels.json wins over metadata', labels: '["a", "b"]', names: ['a', 'b'] },
    { name: 'an index object in labels.json', labels: '{"1": "b", "0": "a"}', names: ['a', 'b'] },
    { name: 'metadata when there is no labels.json', labels: undefined, names: ['from metadata'] },
  ])('$name', async ({ labels, names }) => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'labels-'));
    const labelsPath = path.join(folder, 'labels.json');
    if (labels !== undefined) await writeFile(labelsPath, labels);
    expect(await readClassNames(labelsPath, metadata)).toEqual(names);
  });

  it('refuses labels.json that is not names', async () => {
    const folder = await mkdtemp(path.join(os.tmpdir(), 'labels-'));
    await writeFile(path.join(folder, 'labels.json'), '{"0": "a", "2": "c"}');
    await expect(readClassNames(path.join(folder, 'labels.json'), metadata)).rejects.toThrow(
      /labels.json/,
    );
  });

  it('is undefined with neither', async () => {
    expect(await readClassNames('/nonexistent/labels.json', new Map())).toBeUndefined();
  });
});
