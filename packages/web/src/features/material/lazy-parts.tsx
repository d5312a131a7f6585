import { lazy } from 'react';

// The page opens with its list; the import, approve and flow-chart dialogs (the chart library) are fetched when first opened.
export const MaterialImportDialog = lazy(() => import('./material-import-dialog').then((m) => ({ default: m.MaterialImportDialog })));
export const ApproveDialog = lazy(() => import('./approve-dialog').then((m) => ({ default: m.ApproveDialog })));
export const ApplyFlowDialog = lazy(() => import('./apply-flow-dialog').then((m) => ({ default: m.ApplyFlowDialog })));
