import { useEffect, useState } from 'react';
import { Alert, Button, Text } from '@mantine/core';
import { PageSpinner } from '#web/components/page-spinner';
import { Section } from '#web/components/section';
import { errorMessage } from '#web/lib/api-client';
import { useSignedInDevices } from '../api/sessions';
import { pushSupport, useTurnOffPush, useTurnOnPush, type PushSupport } from '../api/push';

/** The browser's answer is read once the section shows, and again after each change. */
function usePushSupport(): [PushSupport | undefined, () => void] {
  const [support, setSupport] = useState<PushSupport>();
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    void pushSupport().then((answer) => {
      if (live) setSupport(answer);
    });
    return () => {
      live = false;
    };
  }, [round]);
  return [
    support,
    () => {
      setRound((value) => value + 1);
    },
  ];
}

/**
 * 'Notifications on this device' (docs/product/accounts.md#profile): what
 * the member gets, then the browser's question only after they press the button; or why it cannot
 * be, or how to turn them off (docs/decisions/web-push.md).
 */
export function PushSection() {
  const [support, recheck] = usePushSupport();
  const devices = useSignedInDevices();
  const turnOn = useTurnOnPush();
  const turnOff = useTurnOffPush();
  const current = devices.data?.find((session) => session.current);
  const subscriptionId = current?.push_subscription_id ?? null;
  const failure = turnOn.error ?? turnOff.error ?? devices.error;
  // The browser's own refusal (its push service unreachable) is not the server's fault.
  const failureText =
    failure instanceof DOMException
      ? 'Your browser could not reach its notification service. Try again later.'
      : errorMessage(failure);
  return (
    <Section title="Notifications on this device">
      <Text mb="sm">
        Get a notification on this device, even when the app is closed, when an appointment reminder
        is due (for appointments where you choose a notification), when your dental practice
        replies, when your dentist answers a photo review and when a report is ready. A notification
        never shows health details: it says only that something is waiting for you.
      </Text>
      {(support === undefined || devices.isPending) && <PageSpinner />}
      {failure !== null && (
        <Alert color="red" variant="outline" mb="sm">
          {failureText}
        </Alert>
      )}
      {support?.kind === 'unsupported' && (
        <Text>
          This browser cannot show notifications from this app. Use a recent Chrome, Edge, Firefox
          or Safari; on an iPhone or iPad, first add the app to your Home Screen and open it from
          there.
        </Text>
      )}
      {support?.kind === 'blocked' && (
        <Text>
          Notifications are blocked for this site in your browser. To allow them, open the site’s
          settings (the icon beside the address), set Notifications to Allow, then reload this page.
        </Text>
      )}
      {support?.kind === 'available' && devices.data !== undefined && subscriptionId === null && (
        <>
          {turnOn.data === false && (
            <Text mb="sm">
              You did not allow notifications. Press the button again if you change your mind.
            </Text>
          )}
          <Text mb="sm">Notifications are off on this device.</Text>
          <Button
            loading={turnOn.isPending}
            onClick={() => {
              turnOn.mutate(support.registration, { onSettled: recheck });
            }}
          >
            Turn on notifications
          </Button>
          <Text size="sm" c="dimmed" mt="xs">
            Your browser will then ask whether to allow notifications from this site.
          </Text>
        </>
      )}
      {support?.kind === 'available' && subscriptionId !== null && (
        <>
          <Text mb="sm">Notifications are on for this device.</Text>
          <Button
            variant="outline"
            loading={turnOff.isPending}
            onClick={() => {
              turnOff.mutate({ id: subscriptionId, registration: support.registration });
            }}
          >
            Turn off notifications
          </Button>
        </>
      )}
    </Section>
  );
}
