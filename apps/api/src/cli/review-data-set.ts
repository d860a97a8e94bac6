import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createBlobStore } from '../adapters/blob-store/create-blob-store';
import { systemClock } from '../clock';
import { ReviewRepository } from '../modules/reviews/reviews.repository';
import { storedImageSize } from '../modules/reviews/stored-image-size';
import { writeTrainingSet, type ClassNames } from '../modules/reviews/training-set';
import { repoRoot } from '../repo-root';
import { openForCommand, runWhenScript, type CommandMain } from './command';

export const usage = `Review data set: npm run review-data-set -- <empty output folder>

Writes the images of the dentists' answered reviews whose members allow their reviewed images
to improve the models, with the dentist's boxes (confirmed and drawn, never the rejected), in the
layout training/ reads, and manifest.json naming each image's review and consent time. Members
without consent, or who withdrew it, are left out.

Uses DATABASE_URL when set, otherwise the embedded database in DATA_DIR (default ./data), which
allows one process at a time: stop the server first.`;

/** The models whose classes the labels take (their exported labels.json). */
const classFiles: Record<keyof ClassNames, string> = {
  xray: 'models/dental-xray-416.labels.json',
  photo: 'models/dental-photo-2class.labels.json',
};

async function readClasses(): Promise<ClassNames> {
  const read = async (file: string) =>
    JSON.parse(await readFile(path.join(repoRoot, file), 'utf8')) as string[];
  return { xray: await read(classFiles.xray), photo: await read(classFiles.photo) };
}

/** Whether the folder is missing or empty: the data set never mixes with older files. */
async function isEmptyFolder(folder: string): Promise<boolean> {
  try {
    return (await readdir(folder)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
}

/** Opens the configured database and blob store, writes the data set, closes. */
export const main: CommandMain = async (argv, env, out, err) => {
  const [outDir] = argv;
  if (outDir === undefined || argv.length !== 1 || outDir === '--help' || outDir === 'help') {
    (outDir === undefined ? err : out)(usage);
    return outDir === '--help' || outDir === 'help' ? 0 : 1;
  }
  if (!(await isEmptyFolder(outDir))) {
    err(`${outDir} is not empty: choose a new folder.`);
    return 1;
  }
  const opened = await openForCommand(env, err);
  if (opened === null) return 1;
  const { config, database } = opened;
  const blobs = createBlobStore(config);
  try {
    const manifest = await writeTrainingSet(
      new ReviewRepository(database.db),
      blobs,
      storedImageSize(blobs),
      await readClasses(),
      outDir,
      systemClock.now(),
    );
    const reviews = new Set(manifest.images.map((image) => image.review_id)).size;
    out(
      `Wrote ${String(manifest.images.length)} image(s) of ${String(reviews)} consented review(s) to ${outDir}.`,
    );
    return 0;
  } finally {
    await database.close();
  }
};

runWhenScript(import.meta.url, main);
