import type { ReactNode } from 'react';
import { Navigate } from 'react-router-dom';
import type { Role } from '@crm/contracts';
import { LoadingScreen, useSession } from '@crm/web-kit';

/** A user without one of the roles (or without a session) is sent to /login. */
export function RequireRole({ roles, children }: { roles: readonly Role[]; children: ReactNode }) {
  const { status, user } = useSession();
  if (status === 'loading') return <LoadingScreen />;
  if (status !== 'loggedIn' || !user || !roles.includes(user.rol)) return <Navigate to="/login" replace />;
  return children;
}
