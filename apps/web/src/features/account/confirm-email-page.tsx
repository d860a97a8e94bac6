import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { PublicPage } from '#web/components/public-page';
import { paths } from '#web/config/paths';
import { errorMessage } from '#web/lib/api-client';
import { useSession } from '#web/lib/session';
import { useConfirmEmail } from './api/email-confirmation';

/** The e-mailed confirmation link's screen (docs/decisions/email-confirmation.md). The address is
 *  confirmed by a tap, not on opening: a mail filter that opens links to scan them uses nothing
 *  up. Works signed in or not. */
export default function ConfirmEmailPage() {
  const [searchParams] = useSearchParams();
  const key = searchParams.get('key') ?? '';
  const confirm = useConfirmEmail();
  const signedIn = useSession().access !== null;
  const next = signedIn ? (
    <Anchor component={Link} to={paths.home}>
      Go to Home
    </Anchor>
  ) : (
    <Anchor component={Link} to={paths.login}>
      Log in
    </Anchor>
  );

  return (
    <PublicPage title="Confirm your e-mail address">
      {key === '' ? (
        <Alert color="red" variant="outline">
          This confirmation link is incomplete. Sign in and ask for a new one.
        </Alert>
      ) : confirm.isSuccess ? (
        <Stack gap="md">
          <Alert color="green" variant="light" role="status">
            {confirm.data.message} Reminders and notices will be sent to it.
          </Alert>
          {next}
        </Stack>
      ) : (
        <Stack gap="md">
          <Text>Tap the button to confirm that you read mail at this address.</Text>
          {confirm.isError && (
            <Alert color="red" variant="outline" role="alert">
              {errorMessage(confirm.error)}
            </Alert>
          )}
          <Button
            loading={confirm.isPending}
            onClick={() => {
              confirm.mutate(key);
            }}
          >
            Confirm e-mail address
          </Button>
          {confirm.isError && next}
        </Stack>
      )}
    </PublicPage>
  );
}
