/** The page's 'Reload' on 'A new version is ready' (lib/app-update.ts) asks the waiting worker to
 *  take over; until then the open pages keep the version they started with. */
export function updateWhenAsked(worker: ServiceWorkerGlobalScope): void {
  worker.addEventListener('message', (event) => {
    if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') {
      void worker.skipWaiting();
    }
  });
}
