import { Alert, Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import dayjs from 'dayjs';
import { describeBrowser, type DeviceSession } from '@dental/contracts';
import { PageSpinner } from '#web/components/page-spinner';
import { Section } from '#web/components/section';
import { errorMessage } from '#web/lib/api-client';
import { dateFormat } from '#web/lib/dates';
import { useSignedInDevices, useSignOutDevice, useTurnOffNotifications } from '../api/sessions';
import classes from './signed-in-devices.module.css';

const when = (at: string) => dayjs(at).format(`${dateFormat} HH:mm`);

function Device({
  session,
  signOut,
  pending,
  turnOffNotifications,
  turningOff,
}: {
  session: DeviceSession;
  signOut: () => void;
  pending: boolean;
  turnOffNotifications: () => void;
  turningOff: boolean;
}) {
  const device = describeBrowser(session.user_agent);
  return (
    <Paper component="li" withBorder p="sm" className={classes.device}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Stack gap={2} className={classes.details}>
          <Group gap="xs">
            <Text fw={600}>{device}</Text>
            {session.current && (
              <Badge variant="light" color="dental">
                This device
              </Badge>
            )}
            {session.push_subscription_id !== null && (
              <Badge variant="light" color="gray">
                Notifications on
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            Signed in <time dateTime={session.created_at}>{when(session.created_at)}</time>
            {' · '}last active{' '}
            <time dateTime={session.last_used_at}>{when(session.last_used_at)}</time>
            {session.ip !== null && ` · ${session.ip}`}
          </Text>
          {!session.signed_in && (
            <Text size="sm">
              Signed out after a time without use. Notifications still come to this device until you
              turn them off.
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          {session.push_subscription_id !== null && (
            <Button
              variant="subtle"
              size="xs"
              aria-label={`Turn off notifications on ${device}`}
              loading={turningOff}
              onClick={turnOffNotifications}
            >
              Turn off notifications
            </Button>
          )}
          {!session.current && session.signed_in && (
            <Button
              variant="outline"
              size="xs"
              aria-label={`Sign out ${device}`}
              loading={pending}
              onClick={signOut}
            >
              Sign out
            </Button>
          )}
        </Group>
      </Group>
    </Paper>
  );
}

/** The member's live sessions, each with 'Sign out', and 'Sign out everywhere else'
 *  (docs/decisions/signed-in-devices.md); and the devices signed out by a timeout whose
 *  notifications are on, each with 'Turn off notifications' (docs/decisions/web-push.md). */
export function SignedInDevices() {
  const devices = useSignedInDevices();
  const signOut = useSignOutDevice();
  const turnOff = useTurnOffNotifications();
  const others = devices.data?.filter((session) => !session.current && session.signed_in) ?? [];
  return (
    <Section title="Signed-in devices">
      <Text mb="sm">
        The browsers and apps signed in to your account. Sign out any you do not recognise, then
        change your password.
      </Text>
      {devices.isPending && <PageSpinner />}
      {devices.isError && (
        <Alert color="red" variant="outline">
          {errorMessage(devices.error)}
        </Alert>
      )}
      {(signOut.error ?? turnOff.error) !== null && (
        <Alert color="red" variant="outline" mb="sm">
          {errorMessage(signOut.error ?? turnOff.error)}
        </Alert>
      )}
      {devices.data && (
        <ul className={classes.list} aria-label="Signed-in devices, most recently used first">
          {devices.data.map((session) => (
            <Device
              key={session.id}
              session={session}
              pending={signOut.isPending && signOut.variables === session.id}
              signOut={() => {
                signOut.mutate(session.id);
              }}
              turningOff={turnOff.isPending && turnOff.variables === session.push_subscription_id}
              turnOffNotifications={() => {
                if (session.push_subscription_id !== null)
                  turnOff.mutate(session.push_subscription_id);
              }}
            />
          ))}
        </ul>
      )}
      {others.length > 0 && (
        <Button
          mt="sm"
          variant="outline"
          color="red"
          loading={signOut.isPending && signOut.variables === null}
          onClick={() => {
            signOut.mutate(null);
          }}
        >
          Sign out everywhere else
        </Button>
      )}
    </Section>
  );
}
