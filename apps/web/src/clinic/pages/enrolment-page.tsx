import { useState } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { PublicPage } from '#web/components/public-page';
import { PasskeysSection } from '#web/features/auth/components/passkeys-section';
import { TwoStepSection } from '#web/features/auth/components/two-step-section';
import { logout } from '#web/lib/tab-session';
import { clinicMeQuery } from '../api/clinic-api';
import type { ClinicMe } from '@dental/contracts';

/** A staff account without a second factor sees no patient data (docs/decisions/clinic-staff.md): this walks them
 *  through the Profile's own two-step verification (or a passkey), then into the console. */
export function EnrolmentPage({ me }: { me: ClinicMe }) {
  const queryClient = useQueryClient();
  const [checking, setChecking] = useState(false);
  const [stillMissing, setStillMissing] = useState(false);

  const carryOn = async () => {
    setChecking(true);
    const fresh = await queryClient.query({ ...clinicMeQuery, staleTime: 0 }).catch(() => me);
    setChecking(false);
    setStillMissing(!fresh.second_factor_enrolled);
  };

  return (
    <PublicPage title="Protect your staff account" wide>
      <Stack gap="md">
        <Text>
          Welcome, {me.name}. Staff accounts open patients’ health information, so they need a
          second step when signing in. Turn on two-step verification with an authenticator app on
          your phone (or add a passkey), then continue to the clinic console.
        </Text>
        <TwoStepSection />
        <PasskeysSection />
        {stillMissing && (
          <Alert color="red" variant="outline">
            Your account has no second step yet. Turn on two-step verification or add a passkey
            first.
          </Alert>
        )}
        <Stack gap="xs" align="flex-start">
          <Button loading={checking} onClick={() => void carryOn()}>
            Continue to the clinic console
          </Button>
          <Button variant="subtle" onClick={() => void logout()}>
            Log out
          </Button>
        </Stack>
      </Stack>
    </PublicPage>
  );
}
