import { useState } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  account as accountSchema,
  accountPaths,
  socialProviderNames,
  socialProviders,
  type Account,
  type ReauthenticateRequest,
  type SocialProvider,
} from '@dental/contracts';
import { Detail, DetailsList } from '#web/components/details-list';
import { needsPassword, PasswordCheckDialog } from '#web/components/password-check-dialog';
import { Section } from '#web/components/section';
import { paths } from '#web/config/paths';
import { accountQuery } from '#web/lib/account';
import { apiRequest, errorMessage } from '#web/lib/api-client';
import { usePublicConfig } from '#web/lib/public-config';
import { confirmIdentity } from '#web/lib/step-up';
import { goToProvider, providerIcons } from './social-sign-in';

interface Link {
  provider: SocialProvider;
  id: string;
}

/** DELETE /api/account/social_media_account/{provider}/{id}/; the answer replaces the user. The
 *  server accepts it only from a recent sign-in: given the password or a code, the session is
 *  re-checked first (docs/decisions/session-timeouts.md). */
function useUnlink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ provider, id, proof }: Link & { proof?: ReauthenticateRequest }) => {
      await confirmIdentity(proof);
      return apiRequest(`${accountPaths.socialMediaAccount}${provider}/${id}/`, accountSchema, {
        method: 'DELETE',
      });
    },
    onSuccess: (updated) => {
      queryClient.setQueryData(accountQuery.queryKey, updated);
    },
  });
}

/**
 * Social Account Connect (docs/product/accounts.md#profile): each configured provider, or one
 * still linked, with the linked e-mail and Connect (through the provider, back to the Profile) or
 * Disconnect, which the server refuses for the last way to sign in.
 */
export function SocialAccountsSection({ account }: { account: Account }) {
  const config = usePublicConfig();
  const unlink = useUnlink();
  const [leaving, setLeaving] = useState<SocialProvider | null>(null);
  // The link being disconnected while the password (or a code) is asked for again.
  const [checking, setChecking] = useState<Link | null>(null);
  const disconnect = (link: Link, proof?: ReauthenticateRequest) => {
    unlink.mutate(
      { ...link, proof },
      {
        onSuccess: () => {
          setChecking(null);
        },
        onError: (error) => {
          if (proof === undefined && needsPassword(error)) {
            unlink.reset();
            setChecking(link);
          }
        },
      },
    );
  };
  const clients = config.data?.social_providers ?? [];
  const shown = socialProviders.filter(
    (provider) =>
      account[`${provider}_account`] !== null ||
      clients.some((client) => client.provider === provider),
  );
  return (
    <Section title="Social Account Connect">
      {shown.length === 0 ? (
        <Text>No social sign-in is offered on this server.</Text>
      ) : (
        <DetailsList>
          {shown.map((provider) => {
            const linked = account[`${provider}_account`];
            const client = clients.find((candidate) => candidate.provider === provider);
            const name = socialProviderNames[provider];
            const Icon = providerIcons[provider];
            return (
              <Detail key={provider} label={name}>
                <Group gap="xs" wrap="wrap">
                  <Text span style={{ overflowWrap: 'anywhere' }}>
                    {linked === null ? 'Not linked' : (linked.email ?? 'Linked')}
                  </Text>
                  {linked !== null ? (
                    <Button
                      size="xs"
                      variant="default"
                      loading={unlink.isPending && unlink.variables.provider === provider}
                      onClick={() => {
                        disconnect({ provider, id: linked.social_media_account });
                      }}
                    >
                      Disconnect {name}
                    </Button>
                  ) : (
                    client !== undefined && (
                      <Button
                        size="xs"
                        variant="default"
                        leftSection={<Icon size={16} aria-hidden />}
                        loading={leaving === provider}
                        onClick={() => {
                          setLeaving(provider);
                          void goToProvider(client, 'link', paths.account);
                        }}
                      >
                        Connect {name}
                      </Button>
                    )
                  )}
                </Group>
              </Detail>
            );
          })}
        </DetailsList>
      )}
      {unlink.isError && checking === null && (
        <Alert color="red" variant="light" mt="sm" role="alert">
          {errorMessage(unlink.error)}
        </Alert>
      )}
      <PasswordCheckDialog
        opened={checking !== null}
        onClose={() => {
          setChecking(null);
          unlink.reset();
        }}
        confirmLabel="Disconnect"
        pending={unlink.isPending}
        error={unlink.error}
        onSubmit={(password) => {
          if (checking !== null) disconnect(checking, { password });
        }}
        onSubmitCode={(code) => {
          if (checking !== null) disconnect(checking, { code });
        }}
      />
    </Section>
  );
}
