import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * One tile of the dashboard grid. Like the route registry, this lives in app/: capabilities
 * (statistics, faults, power trend) register their widget here with a lazy import.
 */
export interface DashboardWidget {
  key: string;
  component: LazyExoticComponent<ComponentType>;
  /** Columns out of 24 on wide screens; default 12. Narrow screens stack every widget. */
  span?: number;
  /** Shown only to users holding one of these permissions. */
  permi?: string[];
  /** Shown only to users holding one of these roles. */
  role?: string[];
}

/** The widget registry, in display order. */
export const dashboardWidgets: DashboardWidget[] = [
  // Statistics of charging (scoped to the caller): today's figures, and the revenue trend at the end.
  { key: 'today', component: lazy(() => import('../../features/statistics/today-widget')), span: 16 },
  {
    key: 'newMembers',
    component: lazy(() => import('../../features/cards/new-members-widget')),
    span: 8,
    permi: ['user:chargeUser:list'],
  },
  { key: 'assets', component: lazy(() => import('../../features/statistics/assets-widget')), span: 24 },
  // Live monitoring: connectors by status, open faults, and the 24-hour power trend.
  { key: 'statusCounts', component: lazy(() => import('../../features/monitor/widgets/counts-widget')), span: 24 },
  { key: 'powerTrend', component: lazy(() => import('../../features/monitor/widgets/power-widget')), span: 14 },
  {
    key: 'liveFaults',
    component: lazy(() => import('../../features/monitor/widgets/faults-widget')),
    span: 10,
    permi: ['monitor:point:list'],
  },
  { key: 'revenueTrend', component: lazy(() => import('../../features/statistics/revenue-widget')), span: 24 },
];
