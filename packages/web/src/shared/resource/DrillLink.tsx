import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useAuth } from '../auth/useAuth';
import { toSearchParams } from './url-query';

/**
 * A figure that opens the list it counts, filtered as the URL's query (the list reads its filters
 * from there). Without the list's permission the figure stays plain text: the route would refuse.
 */
export function DrillLink({
  to,
  query = {},
  permi,
  children,
  testId,
  plain = false,
}: {
  to: string;
  query?: Record<string, unknown>;
  permi: string;
  children: ReactNode;
  testId?: string;
  /** A link in words (link colour, inline), instead of a figure or card that keeps its colours. */
  plain?: boolean;
}) {
  const { hasPermi } = useAuth();
  if (!hasPermi(permi)) return <>{children}</>;
  const search = toSearchParams(query).toString();
  return (
    <Link to={search ? `${to}?${search}` : to} data-testid={testId} style={plain ? undefined : { display: 'block', color: 'inherit' }}>
      {children}
    </Link>
  );
}
