import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession, useWaitingForOtherTabs } from '../lib/session';
import { paths } from '../config/paths';

/** Guests go to /login, which brings them back here after signing in
 *  (docs/product/general.md#routes); a new tab first waits briefly for another tab's session
 *  (docs/decisions/session-handoff.md). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { access } = useSession();
  const waiting = useWaitingForOtherTabs();
  const location = useLocation();
  if (access === null && waiting) return null;
  if (access === null) return <Navigate to={paths.login} replace state={{ from: location }} />;
  return children;
}
