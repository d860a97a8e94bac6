import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { useTimeout } from '@mantine/hooks';
import { IconBrandApple, IconBrandFacebook, IconBrandGoogle } from '@tabler/icons-react';
import { useLocation } from 'react-router';
import {
  socialProviderNames,
  termsNotAgreedMessage,
  type SocialProvider,
  type SocialProviderClient,
} from '@dental/contracts';
import { usePublicConfig } from '#web/lib/public-config';
import { returnPath } from '../return-path';
import { startSocialSignIn, type SignInIntent } from '../social-oauth';
import classes from './social-sign-in.module.css';

/** How long the hint over the social buttons stays (docs/product/accounts.md#social-sign-in). */
export const socialHintMs = 3000;

export const providerIcons: Record<SocialProvider, typeof IconBrandGoogle> = {
  google: IconBrandGoogle,
  apple: IconBrandApple,
  facebook: IconBrandFacebook,
};

/** Sends the browser to the provider; it comes back to /auth/callback. */
export async function goToProvider(
  client: SocialProviderClient,
  intent: SignInIntent,
  returnTo: string,
): Promise<void> {
  window.location.assign(await startSocialSignIn(client, intent, returnTo));
}

/**
 * 'Continue with …' for each configured provider (docs/decisions/social-sign-in.md). They stay
 * disabled until the terms are ticked (docs/product/accounts.md#social-sign-in); a click on their
 * area meanwhile shows the terms hint for 3 seconds.
 */
export function SocialSignIn({ termsAgreed }: { termsAgreed: boolean }) {
  const config = usePublicConfig();
  const location = useLocation();
  const [hintVisible, setHintVisible] = useState(false);
  const [leaving, setLeaving] = useState<SocialProvider | null>(null);
  const hideHint = useTimeout(() => {
    setHintVisible(false);
  }, socialHintMs);

  const clients = config.data?.social_providers ?? [];
  if (clients.length === 0) return null;

  const showHint = () => {
    if (termsAgreed) return;
    setHintVisible(true);
    hideHint.clear();
    hideHint.start();
  };

  return (
    <Stack gap="xs">
      {/* Disabled buttons receive no clicks, so the area around them listens instead. */}
      <div className={classes.area} onClick={showHint}>
        {clients.map((client) => {
          const Icon = providerIcons[client.provider];
          return (
            <Button
              key={client.provider}
              variant="default"
              fullWidth
              disabled={!termsAgreed}
              loading={leaving === client.provider}
              leftSection={<Icon size={18} aria-hidden />}
              onClick={() => {
                setLeaving(client.provider);
                void goToProvider(client, 'login', returnPath(location.state));
              }}
            >
              Continue with {socialProviderNames[client.provider]}
            </Button>
          );
        })}
      </div>
      <Text role="status" size="sm" c="red.9" className={classes.hint}>
        {hintVisible ? termsNotAgreedMessage : null}
      </Text>
    </Stack>
  );
}
