import { lazy } from 'react';

/** The issue dialog (its upload widget included) is fetched when first opened. */
export const IssueDialog = lazy(() => import('./invoice-issue-dialog').then((m) => ({ default: m.IssueDialog })));
