import type { ComponentType } from 'react';

/** How long a route's script chunk may take to arrive before the load counts as failed
 *  (docs/product/general.md#script-chunks). */
export const chunkTimeoutMs = 120_000;

/** The error a failed or timed-out route chunk load surfaces
 *  (docs/product/general.md#script-chunks). */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';

  constructor(chunk: string, options?: ErrorOptions) {
    super(`Loading chunk ${chunk} failed.`, options);
  }
}

/** Waits for a chunk import for at most `chunkTimeoutMs`; any failure becomes a ChunkLoadError. */
export function loadChunk<Module>(chunk: string, load: () => Promise<Module>): Promise<Module> {
  return new Promise<Module>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new ChunkLoadError(chunk));
    }, chunkTimeoutMs);
    load().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(chunk, { cause: error }));
      },
    );
  });
}

/** Mantine's whole stylesheet (lib/mantine-styles.ts), fetched once beside the first screen
 *  that needs it. */
export function loadAllStyles(): Promise<unknown> {
  return loadChunk('mantine-styles', () => import('./mantine-styles'));
}

/**
 * A React Router `lazy` function for a module whose default export is the route's screen. The
 * screen renders once Mantine's whole stylesheet is in too, unless `pageStylesSuffice` (the
 * sign-in screen, which the page's own styles cover).
 */
export function lazyRoute(
  chunk: string,
  load: () => Promise<{ default: ComponentType }>,
  { pageStylesSuffice = false } = {},
) {
  return async () => {
    const [module] = await Promise.all([
      loadChunk(chunk, load),
      pageStylesSuffice ? undefined : loadAllStyles(),
    ]);
    return { Component: module.default };
  };
}
