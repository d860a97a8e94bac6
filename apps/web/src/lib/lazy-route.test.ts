import { describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, chunkTimeoutMs, lazyRoute, loadChunk } from './lazy-route';

describe('route chunk loading', () => {
  it('hands over the loaded module', async () => {
    const module = { default: () => null };
    await expect(loadChunk('home', () => Promise.resolve(module))).resolves.toBe(module);
  });

  it('turns a failed import into a ChunkLoadError that keeps the cause', async () => {
    const cause = new TypeError('Failed to fetch dynamically imported module');
    const error: unknown = await loadChunk('login', () => Promise.reject(cause)).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(error).toMatchObject({
      name: 'ChunkLoadError',
      message: 'Loading chunk login failed.',
      cause,
    });
  });

  it('gives up after 120 seconds', async () => {
    vi.useFakeTimers();
    const pending = loadChunk('account', () => new Promise<never>(() => undefined));
    const settled = vi.fn();
    pending.catch(settled);

    await vi.advanceTimersByTimeAsync(chunkTimeoutMs - 1);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'ChunkLoadError', message: 'Loading chunk account failed.' }),
    );
    expect(chunkTimeoutMs).toBe(120_000);
  });

  it('gives React Router the module’s default export as the route component', async () => {
    const Screen = () => null;
    await expect(lazyRoute('home', () => Promise.resolve({ default: Screen }))()).resolves.toEqual({
      Component: Screen,
    });
  });
});
