import { useQuery } from '@tanstack/react-query';
import { Anchor, Button, Stack, Text } from '@mantine/core';
import { Navigate, Outlet, useLocation, useOutletContext } from 'react-router';
import { LoadFailed } from '#web/components/load-failed';
import { PageSpinner } from '#web/components/page-spinner';
import { PublicPage } from '#web/components/public-page';
import { useSession } from '#web/lib/session';
import { logout } from '#web/lib/tab-session';
import { accountRoleQuery, clinicMeQuery } from './api/clinic-api';
import type { ClinicMe } from '@dental/contracts';
import { EnrolmentPage } from './pages/enrolment-page';
import { clinicPaths } from './paths';

/** A patient's account signed in here: the console is not theirs, and says where to go. */
function MemberNotice() {
  return (
    <PublicPage title="This is the clinic console">
      <Stack gap="md">
        <Text>
          This part of Dental Companion is for the staff of a dental practice. You are signed in
          with a patient account, which has no access to it.
        </Text>
        <Anchor href="/">Go to your Dental Companion account</Anchor>
        <Button variant="default" w="fit-content" onClick={() => void logout()}>
          Log out
        </Button>
      </Stack>
    </PublicPage>
  );
}

/**
 * Every console screen but sign-in and the invitation: a session (else sign-in, which brings the
 * user back), a staff account (a member is told this is not their app), and a second factor
 * (else the enrolment walk-through), in that order, so no clinic route that needs the second
 * factor is asked before it is there.
 */
export function ConsoleGate() {
  const { access } = useSession();
  const location = useLocation();
  const signedIn = access !== null;
  const role = useQuery({ ...accountRoleQuery, enabled: signedIn });
  const isStaff = role.data !== undefined && role.data.role !== 'member';
  const me = useQuery({ ...clinicMeQuery, enabled: signedIn && isStaff });

  if (!signedIn) return <Navigate to={clinicPaths.signIn} replace state={{ from: location }} />;
  const failed = role.isError ? role : me.isError ? me : null;
  if (failed !== null) {
    return (
      <PublicPage title="Clinic console">
        <LoadFailed error={failed.error} onRetry={failed.refetch} />
      </PublicPage>
    );
  }
  if (role.data === undefined) return <PageSpinner />;
  if (!isStaff) return <MemberNotice />;
  if (me.data === undefined) return <PageSpinner />;
  if (!me.data.second_factor_enrolled) return <EnrolmentPage me={me.data} />;
  return <Outlet context={me.data} />;
}

/** The signed-in staff member, for the screens under the gate. */
export function useStaff(): ClinicMe {
  return useOutletContext<ClinicMe>();
}
