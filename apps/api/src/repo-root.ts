import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root, for the defaults that point into it (web build, content, models). This
 *  file sits at the depth of the bundle (apps/api/src beside apps/api/dist), so the same relative
 *  path holds when it runs from source and when it is bundled into apps/api/dist. */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
