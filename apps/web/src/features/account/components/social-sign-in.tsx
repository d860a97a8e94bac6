import { useState } from 'react';
import { Button, Stack, Text } from '@mantine/core';
import { useTimeout } from '@mantine/hooks';
import { IconBrandApple, IconBrandFacebook, IconBrandGoogle } from '@tabler/icons-react';
import { socialProviderNames, termsNotAgreedMessage } from '@dental/contracts';
import classes from './social-sign-in.module.css';

/** How long the hint over the social buttons stays (docs/product/accounts.md#social-sign-in). */
export const socialHintMs = 3000;

const providers = [
  { name: socialProviderNames.google, Icon: IconBrandGoogle },
  { name: socialProviderNames.apple, Icon: IconBrandApple },
  { name: socialProviderNames.facebook, Icon: IconBrandFacebook },
] as const;

/**
 * Google, Apple and Facebook sign-in. They stay disabled until the terms are ticked
 * (docs/product/accounts.md#social-sign-in); a click on their area meanwhile shows the terms hint
 * for 3 seconds. No provider is configured in this release, so they also stay disabled after that
 * and say so (docs/decisions/web-social-sign-in-display.md).
 */
export function SocialSignIn({ termsAgreed }: { termsAgreed: boolean }) {
  const [hintVisible, setHintVisible] = useState(false);
  const hideHint = useTimeout(() => {
    setHintVisible(false);
  }, socialHintMs);

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
        {providers.map(({ name, Icon }) => (
          <Button
            key={name}
            variant="default"
            fullWidth
            disabled
            leftSection={<Icon size={18} aria-hidden />}
            aria-describedby="social-not-configured"
          >
            Continue with {name}
          </Button>
        ))}
      </div>
      <Text id="social-not-configured" size="sm" c="dimmed">
        Social sign-in is not configured.
      </Text>
      <Text role="status" size="sm" c="red.9" className={classes.hint}>
        {hintVisible ? termsNotAgreedMessage : null}
      </Text>
    </Stack>
  );
}
