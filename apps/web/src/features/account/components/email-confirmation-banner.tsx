import { Alert, Button, Group, Text } from '@mantine/core';
import type { Account } from '@dental/contracts';
import { errorMessage } from '#web/lib/api-client';
import { useAccount } from '#web/lib/account';
import { useResendConfirmation } from '../api/email-confirmation';

/** What the banner says: the address waiting for its link, and why it matters. */
export function confirmationText(account: Pick<Account, 'email' | 'pending_email'>): string {
  return account.pending_email === null
    ? `Please confirm your e-mail address ${account.email}: open the link we sent there. Reminders and notices are sent only to a confirmed address.`
    : `Please confirm your new e-mail address ${account.pending_email}: open the link we sent there. Until then your account keeps ${account.email}.`;
}

/** Above every signed-in screen while an address waits for confirmation
 *  (docs/decisions/email-confirmation.md), with 'Send the e-mail again'. */
export function EmailConfirmationBanner() {
  const account = useAccount().data;
  const resend = useResendConfirmation();
  if (account === undefined || (account.email_confirmed && account.pending_email === null)) {
    return null;
  }
  return (
    <Alert variant="light" color="yellow" mb="md" role="status" aria-label="E-mail confirmation">
      <Group justify="space-between" gap="xs">
        <Text size="sm" style={{ overflowWrap: 'anywhere', flex: '1 1 16rem' }}>
          {confirmationText(account)}
        </Text>
        <Button
          size="xs"
          variant="default"
          loading={resend.isPending}
          onClick={() => {
            resend.mutate();
          }}
        >
          Send the e-mail again
        </Button>
      </Group>
      {resend.isSuccess && (
        <Text size="sm" mt="xs">
          Sent. The newest link is the one that works.
        </Text>
      )}
      {resend.isError && (
        <Text size="sm" mt="xs" c="red.9">
          {errorMessage(resend.error)}
        </Text>
      )}
    </Alert>
  );
}
