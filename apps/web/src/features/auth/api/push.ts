import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  pushPaths,
  pushPublicKey,
  pushSubscription,
  pushSubscriptionRequest,
} from '@dental/contracts';
import { apiRequest, apiSend } from '#web/lib/api-client';

/** The signed-in devices list carries each device's notifications (docs/decisions/web-push.md). */
const sessionsKey = ['account', 'sessions'] as const;

/** What this browser offers: no Push API, notifications blocked, or a worker to subscribe with. */
export type PushSupport =
  | { kind: 'unsupported' }
  | { kind: 'blocked' }
  | { kind: 'available'; registration: ServiceWorkerRegistration };

export async function pushSupport(): Promise<PushSupport> {
  if (
    !('serviceWorker' in navigator) ||
    !('PushManager' in window) ||
    !('Notification' in window)
  ) {
    return { kind: 'unsupported' };
  }
  // The app's worker registers itself in the built app; without it there is nothing to push to.
  const registration = await navigator.serviceWorker.getRegistration();
  if (registration === undefined) return { kind: 'unsupported' };
  if (Notification.permission === 'denied') return { kind: 'blocked' };
  return { kind: 'available', registration };
}

/** The browser's own key (base64url) as PushManager.subscribe wants it. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const text = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, '='));
  return Uint8Array.from(text, (character) => character.charCodeAt(0));
}

/** Asks the browser (only now, after the member pressed the button), subscribes and tells the
 *  server; answers false when the member did not allow notifications. */
export function useTurnOnPush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (registration: ServiceWorkerRegistration) => {
      if ((await Notification.requestPermission()) !== 'granted') return false;
      const { public_key: publicKey } = await apiRequest(pushPaths.publicKey, pushPublicKey);
      const subscription = await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(publicKey),
      });
      await apiRequest(pushPaths.subscriptions, pushSubscription, {
        method: 'POST',
        body: pushSubscriptionRequest.parse(subscription.toJSON()),
      });
      return true;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}

/** Ends a device's notifications on the server and, for this device, in the browser too. */
export function useTurnOffPush() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      id,
      registration,
    }: {
      id: string;
      registration: ServiceWorkerRegistration | undefined;
    }) => {
      await apiSend(pushPaths.subscription(id), { method: 'DELETE' });
      await (await registration?.pushManager.getSubscription())?.unsubscribe();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsKey }),
  });
}
