import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';

/**
 * /redirect/{path}: refresh a page by replacing the route (spec §2). The old page unmounts, its
 * data is marked stale, and the path renders afresh.
 */
export default function RedirectPage() {
  const { '*': rest = '' } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  useEffect(() => {
    void qc.invalidateQueries({ refetchType: 'none' });
    void navigate(`/${rest}${search}`, { replace: true });
  }, [rest, search, navigate, qc]);
  return null;
}
