import type { ReactNode } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { account, accountPaths } from '@dental/contracts';
import { accountQuery, useAccount } from '#web/lib/account';
import { apiRequest, errorMessage } from '#web/lib/api-client';
import { Dialog } from './dialog';
import { PageSpinner } from './page-spinner';

export interface UploadDisclaimerGateProps {
  /** Cancel (or Escape) on the disclaimer. */
  onDecline: () => void;
  /** The add form, shown once the disclaimer is accepted. */
  children: ReactNode;
}

/** The disclaimer to accept before adding a photo or a record
 *  (docs/product/records.md#disclaimer-before-adding), asked once per member: the acceptance is
 *  stored with the account (docs/decisions/upload-disclaimer.md). Its wording is ours. */
export function UploadDisclaimerGate({ onDecline, children }: UploadDisclaimerGateProps) {
  const member = useAccount();
  const queryClient = useQueryClient();
  const accept = useMutation({
    mutationFn: () => apiRequest(accountPaths.uploadDisclaimer, account, { method: 'PUT' }),
    onSuccess: (updated) => {
      queryClient.setQueryData(accountQuery.queryKey, updated);
    },
  });
  if (member.isPending) return <PageSpinner />;
  if (member.data?.upload_disclaimer_accepted_at != null) return children;
  return (
    <Dialog opened onClose={onDecline} title="Disclaimer" closeOnClickOutside={false} centered>
      <Text mb="sm">
        The files you store here are kept for your own reference. Nobody reviews them, and they do
        not replace an examination, a diagnosis or treatment by your dentist.
      </Text>
      <Text>
        Store only files you are allowed to keep. Deleting a file is permanent: there is no backup.
      </Text>
      {accept.isError && (
        <Alert color="red" variant="outline" role="alert" mt="sm">
          {errorMessage(accept.error)}
        </Alert>
      )}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onDecline}>
          Cancel
        </Button>
        <Button
          onClick={() => {
            accept.mutate();
          }}
          loading={accept.isPending}
          data-autofocus
        >
          I accept
        </Button>
      </Group>
    </Dialog>
  );
}
