/**
 * Guards the workspace routes: without a stored login the user goes to the login screen with this
 * path as the redirect (a stale login is caught by the first API call's 10102 instead).
 */
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { currentPathAsRedirect } from './redirect';
import { useLogin } from './useLogin';

export function RequireLogin({ children }: { children: ReactNode }) {
  const login = useLogin();
  const location = useLocation();
  if (!login) {
    const redirect = currentPathAsRedirect(location.pathname, location.search);
    return <Navigate replace to={`/user/login?redirect=${encodeURIComponent(redirect)}`} />;
  }
  return <>{children}</>;
}
