import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';

/** The text of the notice, exactly (docs/product/general.md#installable-app). */
export const updateReadyText = 'A new version is ready —';

/** How often an open app asks whether a new version is out; the browser also asks on each
 *  navigation, which a single-page app seldom makes. */
const updateCheckMs = 60 * 60 * 1000;

/** Hands the page to the waiting worker, and reloads once it has taken over, so that the page
 *  and its scripts come from the same version. */
function reloadInto(waiting: ServiceWorker, container: ServiceWorkerContainer): void {
  let reloaded = false;
  container.addEventListener('controllerchange', () => {
    if (reloaded) return;
    reloaded = true;
    window.location.reload();
  });
  waiting.postMessage({ type: 'SKIP_WAITING' });
}

const noticeId = 'app-update';

function offerReload(waiting: ServiceWorker, container: ServiceWorkerContainer): void {
  notifications.show({
    id: noticeId,
    color: 'dental',
    autoClose: false,
    message: (
      <Group gap="xs" wrap="nowrap">
        <Text size="sm">{updateReadyText}</Text>
        <Button
          size="compact-sm"
          onClick={() => {
            reloadInto(waiting, container);
          }}
        >
          Reload
        </Button>
      </Group>
    ),
  });
}

/**
 * Registers the service worker (docs/decisions/installable-app.md) and offers a reload when a new
 * version has installed beside the one in control. The first install, with no page controlled
 * yet, offers nothing: there is no older version to leave.
 */
export async function watchForUpdates(
  container: ServiceWorkerContainer = navigator.serviceWorker,
): Promise<void> {
  const registration = await container.register('/sw.js', { scope: '/' });
  const offerIfWaiting = () => {
    if (registration.waiting !== null && container.controller !== null) {
      offerReload(registration.waiting, container);
    }
  };
  offerIfWaiting();
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') offerIfWaiting();
    });
  });
  setInterval(() => {
    // A failed check (offline, say) is tried again at the next one.
    registration.update().catch(() => undefined);
  }, updateCheckMs);
}
