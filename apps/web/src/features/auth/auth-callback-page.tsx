import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useSearchParams } from 'react-router';
import {
  account,
  accountPaths,
  loginResponse,
  type SocialLoginRequest,
  type SocialProviderClient,
} from '@dental/contracts';
import { paths } from '#web/config/paths';
import { PublicPage } from '#web/components/public-page';
import { accountQuery } from '#web/lib/account';
import { apiRequest, errorMessage } from '#web/lib/api-client';
import { publicConfigQuery } from '#web/lib/public-config';
import { useSession } from '#web/lib/session';
import { startSession, tokensOf } from './api/login';
import { LoginCodeStep } from './components/login-code-step';
import { exchangeCode, takePendingSignIn, type PendingSignIn } from './social-oauth';

export const staleCallbackMessage =
  'This sign-in is no longer valid. Please start again from the login screen.';
export const cancelledMessage = 'The sign-in was cancelled or refused by the provider.';

type Outcome =
  | { kind: 'working' }
  | { kind: 'failed'; message: string; back: string }
  | { kind: 'second-factor'; mfaToken: string; returnTo: string }
  | { kind: 'done'; to: string };

/**
 * Where a provider sends the browser back (docs/decisions/social-sign-in.md): the state must be
 * the one this tab issued and not used yet; then the code is exchanged for the provider's token,
 * which the API verifies to sign in or to link the account.
 */
export default function AuthCallbackPage() {
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const session = useSession();
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'working' });
  // The pending attempt is used up once, also when React runs the effect twice.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const pending = takePendingSignIn(params.get('state'));
    const back = pending?.intent === 'link' ? paths.account : paths.login;
    const finish = async (): Promise<Outcome> => {
      const code = params.get('code');
      if (pending === null) return { kind: 'failed', message: staleCallbackMessage, back };
      if (code === null) return { kind: 'failed', message: cancelledMessage, back };
      const config = await queryClient.query(publicConfigQuery);
      const client = config.social_providers.find((c) => c.provider === pending.provider);
      if (client === undefined) return { kind: 'failed', message: staleCallbackMessage, back };
      const body = await providerToken(client, pending, code);
      if (pending.intent === 'link') {
        const updated = await apiRequest(accountPaths.socialMediaAccount, account, {
          method: 'POST',
          body,
        });
        queryClient.setQueryData(accountQuery.queryKey, updated);
        return { kind: 'done', to: pending.returnTo };
      }
      const answer = await apiRequest(accountPaths.login, loginResponse, {
        method: 'POST',
        body,
        auth: false,
      });
      const tokens = tokensOf(answer);
      if (tokens === null && 'mfa_token' in answer) {
        return { kind: 'second-factor', mfaToken: answer.mfa_token, returnTo: pending.returnTo };
      }
      if (tokens !== null) startSession(queryClient, tokens);
      return { kind: 'done', to: pending.returnTo };
    };
    finish().then(setOutcome, (error: unknown) => {
      setOutcome({ kind: 'failed', message: errorMessage(error), back });
    });
  }, [params, queryClient]);

  if (outcome.kind === 'done') return <Navigate to={outcome.to} replace />;
  if (outcome.kind === 'second-factor') {
    if (session.access !== null) return <Navigate to={outcome.returnTo} replace />;
    return (
      <PublicPage title="Log in">
        <LoginCodeStep
          mfaToken={outcome.mfaToken}
          onBack={() => {
            setOutcome({ kind: 'done', to: paths.login });
          }}
        />
      </PublicPage>
    );
  }
  return (
    <PublicPage title="Signing you in">
      {outcome.kind === 'working' ? (
        <Stack align="center" gap="sm" role="status">
          <Loader aria-hidden />
          <Text>Checking your sign-in…</Text>
        </Stack>
      ) : (
        <Stack gap="md">
          <Alert color="red" variant="light" title="Sign-in failed" role="alert">
            {outcome.message}
          </Alert>
          <Anchor component={Link} to={outcome.back} replace>
            {outcome.back === paths.account ? 'Back to your profile' : 'Back to log in'}
          </Anchor>
        </Stack>
      )}
    </PublicPage>
  );
}

async function providerToken(
  client: SocialProviderClient,
  pending: PendingSignIn,
  code: string,
): Promise<SocialLoginRequest> {
  const token = await exchangeCode(client, pending, code);
  return {
    login_type: pending.provider,
    token,
    ...(pending.provider === 'apple' ? { nonce: pending.nonce } : {}),
  };
}
