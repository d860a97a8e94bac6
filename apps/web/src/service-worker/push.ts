/** What the API pushes (packages/contracts/src/push.ts): no health details, only where to look
 *  (docs/decisions/web-push.md). */
interface PushPayload {
  title: string;
  body: string;
  url: string;
}

function payloadOf(data: PushMessageData | null): PushPayload | undefined {
  try {
    const value = data?.json() as Partial<PushPayload> | undefined;
    if (typeof value?.title !== 'string' || typeof value.body !== 'string') return undefined;
    return {
      title: value.title,
      body: value.body,
      url: typeof value.url === 'string' ? value.url : '/',
    };
  } catch {
    return undefined;
  }
}

/** A path of this app; anything else (another origin) opens Home instead. */
export function appUrl(url: string, origin: string): string {
  const target = new URL(url, origin);
  return target.origin === origin ? target.href : new URL('/', origin).href;
}

/**
 * Brings the app to `url`: an open window of the app is focused and navigated there, else a new
 * one opens. Exported so that the journey runs it in the worker itself (a browser journey cannot
 * click an operating-system notification).
 */
export async function openApp(worker: ServiceWorkerGlobalScope, url: string): Promise<void> {
  const href = appUrl(url, worker.location.origin);
  const windows = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === worker.location.origin);
  if (open === undefined) {
    await worker.clients.openWindow(href);
    return;
  }
  // Navigated first: a browser may refuse the focus (no user activation), never the navigation
  // of a window this worker controls.
  const navigated = (await open.navigate(href)) ?? open;
  await navigated.focus();
}

/** Shows each push as a notification (one per screen: a repeat replaces it) and opens its screen
 *  when the member taps it. */
export function showPushes(worker: ServiceWorkerGlobalScope): void {
  worker.addEventListener('push', (event) => {
    const payload = payloadOf(event.data);
    if (payload === undefined) return;
    event.waitUntil(
      worker.registration.showNotification(payload.title, {
        body: payload.body,
        icon: '/icons/icon-192.png',
        tag: payload.url,
        data: { url: payload.url },
      }),
    );
  });
  worker.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const { url } = (event.notification.data ?? {}) as { url?: unknown };
    event.waitUntil(openApp(worker, typeof url === 'string' ? url : '/'));
  });
}
