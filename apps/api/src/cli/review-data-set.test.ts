import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, usage } from './review-data-set';

let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), 'dental-review-set-cli-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

/** Runs the command with no database: each refusal comes before one is opened. */
async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(
    argv,
    {},
    (line) => out.push(line),
    (line) => err.push(line),
  );
  return { code, out, err };
}

describe('npm run review-data-set', () => {
  it('prints its usage when asked, and refuses to run without a folder', async () => {
    expect(await run(['--help'])).toEqual({ code: 0, out: [usage], err: [] });
    expect(await run([])).toEqual({ code: 1, out: [], err: [usage] });
  });

  it('never writes into a folder that holds files already', async () => {
    await writeFile(path.join(folder, 'old-manifest.json'), '{}');
    expect(await run([folder])).toEqual({
      code: 1,
      out: [],
      err: [`${folder} is not empty: choose a new folder.`],
    });
  });
});
