import type { ComponentType, LazyExoticComponent } from 'react';

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
export const dashboardWidgets: DashboardWidget[] = [];
