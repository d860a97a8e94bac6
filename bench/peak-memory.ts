/** What `work` took and the process's memory while it ran: RSS and heap before it, and their
 *  peaks, sampled every 5 ms. */
export async function peakMemory<T>(work: () => Promise<T>) {
  global.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 5);
  const started = performance.now();
  try {
    const result = await work();
    return { result, elapsedMs: performance.now() - started, before, peakRss, peakHeap };
  } finally {
    clearInterval(sampler);
  }
}

export const mb = (value: number) => `${(value / 1024 / 1024).toFixed(0)} MB`;
