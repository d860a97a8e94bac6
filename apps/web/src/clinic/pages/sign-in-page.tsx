import { Navigate, useLocation } from 'react-router';
import LoginPage from '#web/features/auth/login-page';
import { returnPath } from '#web/features/auth/return-path';
import { useSession } from '#web/lib/session';
import { clinicPaths } from '../paths';

/** Staff sign in on the patient's own sign-in screen and API, its second-factor step included
 *  (docs/decisions/clinic-staff.md); once signed in they go back to the console screen they came from. */
export default function SignInPage() {
  const session = useSession();
  const location = useLocation();
  if (session.access !== null) {
    const back = returnPath(location.state);
    return <Navigate to={back.startsWith(clinicPaths.today) ? back : clinicPaths.today} replace />;
  }
  return <LoginPage />;
}
