import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../lib/session';
import { paths } from '../config/paths';

/** Guests go to /login, which brings them back here after signing in
 *  (docs/product/general.md#routes). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { access } = useSession();
  const location = useLocation();
  if (access === null) return <Navigate to={paths.login} replace state={{ from: location }} />;
  return children;
}
