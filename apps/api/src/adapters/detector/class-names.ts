import { readFile } from 'node:fs/promises';

/** One Python string literal, in single or double quotes, with backslash escapes. */
const pythonString = String.raw`'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"`;

function unescapePython(text: string): string {
  return text.replace(/\\(.)/g, (_, char: string) => (char === 'n' ? '\n' : char));
}

/**
 * Class names from the `names` entry Ultralytics writes into a model's metadata: a Python dict
 * literal such as `{0: 'caries', 1: 'deep caries'}` (or a list literal `['a', 'b']`).
 */
export function parseNamesLiteral(literal: string): string[] {
  const text = literal.trim();
  if (text.startsWith('[')) {
    return [...text.matchAll(new RegExp(pythonString, 'g'))].map((match) =>
      unescapePython(match[1] ?? match[2] ?? ''),
    );
  }
  if (!text.startsWith('{')) throw new Error(`Class names are not a dict or list: ${text}`);
  const names: string[] = [];
  for (const match of text.matchAll(new RegExp(String.raw`(\d+)\s*:\s*(?:${pythonString})`, 'g'))) {
    names[Number(match[1])] = unescapePython(match[2] ?? match[3] ?? '');
  }
  // `some` skips the holes a missing number leaves, so look at every index.
  if (names.length === 0 || Array.from(names).includes(undefined as never)) {
    throw new Error(`Class names must be numbered 0, 1, 2 … without gaps: ${text}`);
  }
  return names;
}

/** `labels.json`: a list of names in class order, or an object from class index to name. */
function parseLabelsJson(json: unknown): string[] {
  if (Array.isArray(json) && json.every((name) => typeof name === 'string')) return json;
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    const entries = Object.entries(json);
    const names = entries.map((_, index) => (json as Record<string, unknown>)[String(index)]);
    if (names.every((name) => typeof name === 'string')) return names;
  }
  throw new Error(
    'labels.json must be a list of class names or an object from 0, 1, 2 … to names.',
  );
}

/**
 * A model's class names: `labels.json` beside the model file wins; otherwise the `names`
 * metadata entry. Undefined when neither exists.
 */
export async function readClassNames(
  labelsPath: string,
  metadata: ReadonlyMap<string, string>,
): Promise<string[] | undefined> {
  let labels: string | undefined;
  try {
    labels = await readFile(labelsPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (labels !== undefined) return parseLabelsJson(JSON.parse(labels));
  const names = metadata.get('names');
  return names === undefined ? undefined : parseNamesLiteral(names);
}
