import { useEffect, useEffectEvent, useState } from 'react';
import { Button } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconKey } from '@tabler/icons-react';
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  WebAuthnAbortService,
  type AuthenticationResponseJSON,
} from '@simplewebauthn/browser';
import { termsNotAgreedMessage } from '@dental/contracts';
import { errorMessage } from '#web/lib/api-client';
import { startSession } from '../api/login';
import { askForPasskey, signInWithPasskey } from '../api/passkeys';
import { useFormPopup } from './form-popup';

/**
 * Passkey sign-in on the Login screen (docs/decisions/passkeys.md): the browser offers this
 * site's passkeys in the e-mail field's autofill (that field says `autocomplete="username
 * webauthn"`) where it can, and the button asks for one in the browser's own dialog. Like the
 * password, a passkey signs in only once the terms are ticked.
 */
export function PasskeySignIn({ termsAgreed }: { termsAgreed: boolean }) {
  const queryClient = useQueryClient();
  const popup = useFormPopup();
  const [pending, setPending] = useState(false);
  const refuse = (message: string) => {
    popup.show({ title: 'Log in failed', text: message });
  };
  // The autofill ceremony outlives renders: when a passkey is picked it reads the box as it is
  // then.
  const signInAutofilled = useEffectEvent(async (response: AuthenticationResponseJSON) => {
    if (!termsAgreed) {
      refuse(termsNotAgreedMessage);
      return;
    }
    try {
      startSession(queryClient, await signInWithPasskey(response));
    } catch (error) {
      refuse(errorMessage(error));
    }
  });

  useEffect(() => {
    const autofill = async () => {
      if (!(await browserSupportsWebAuthnAutofill())) return;
      // Offered once per visit, and never retried on its own: when the browser ends it (the
      // button's dialog took over, the screen closed, no passkey to offer) the button remains.
      const response = await askForPasskey(true).catch(() => null);
      if (response !== null) await signInAutofilled(response);
    };
    void autofill();
    return () => {
      WebAuthnAbortService.cancelCeremony();
    };
  }, []);

  if (!browserSupportsWebAuthn()) return null;

  const signIn = () => {
    if (!termsAgreed) {
      refuse(termsNotAgreedMessage);
      return;
    }
    setPending(true);
    askForPasskey(false)
      .then(signInWithPasskey)
      .then(
        (tokens) => {
          startSession(queryClient, tokens);
        },
        (error: unknown) => {
          setPending(false);
          refuse(errorMessage(error));
        },
      );
  };

  return (
    <>
      <Button
        variant="default"
        fullWidth
        leftSection={<IconKey size={18} aria-hidden />}
        loading={pending}
        onClick={signIn}
      >
        Sign in with a passkey
      </Button>
      {popup.dialog}
    </>
  );
}
