/**
 * Route guards (docs/console.md#routes-and-guards, issue item 6): a protected route without a stored user goes
 * to /login; a screen above the user's role is neither listed nor shown.
 */
import { lazy, type ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { hasRole } from './auth-provider';
import { useStoredUser } from './state/use-stored-user';

// Rarely shown, so loaded on demand (the routes sit under the layout's Suspense).
const Forbidden = lazy(async () => ({ default: (await import('./forbidden')).Forbidden }));

export function RequireRole({ minRole, children }: { minRole: number; children: ReactNode }) {
  const user = useStoredUser();
  const location = useLocation();
  if (!user) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  if (!hasRole(user, minRole)) return <Forbidden />;
  return <>{children}</>;
}
