import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { loadSession } from '../shared/auth/load-info';
import { useSession } from '../shared/auth/session';
import { signInNotice } from '../shared/auth/sign-in-notice';
import { getToken } from '../shared/cookies';
import { PageLoading } from './routes/screen-element';

/**
 * Navigation guard of spec §2 for every signed-in route: no token → sign-in with the target
 * as redirect; token but no info yet → load it (routes follow from rolePaths) and render again;
 * a failed load has already logged out: go to the root (which leads to sign-in), which says why.
 */
export function Guard({ children }: { children: ReactNode }) {
  const info = useSession();
  const token = getToken();
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    if (!token || info) return;
    void loadSession().then((r) => {
      if (r.ok) return;
      // Shown by the sign-in page, where the root leads without a session.
      signInNotice.set(r.message);
      void navigate('/', { replace: true });
    });
  }, [token, info, navigate]);

  if (!token) {
    const target = location.pathname + location.search;
    return <Navigate to={`/login?redirect=${encodeURIComponent(target)}`} replace />;
  }
  if (!info) return <PageLoading />;
  return <>{children}</>;
}
