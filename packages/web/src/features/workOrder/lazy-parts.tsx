import { lazy } from 'react';

// The page opens with its list; the step dialogs (the form kit), the order's drawer, the service
// areas and the vendor fault codes are fetched when first opened, as the kit's own dialogs are
// (issue 14 item 7).
export const FlowDialog = lazy(() => import('./flow-dialog').then((m) => ({ default: m.FlowDialog })));
export const WorkOrderDrawer = lazy(() => import('./work-order-drawer').then((m) => ({ default: m.WorkOrderDrawer })));
export const ServiceAreasDialog = lazy(() => import('./service-areas').then((m) => ({ default: m.ServiceAreasDialog })));
export const FaultCodesDialog = lazy(() => import('./fault-codes').then((m) => ({ default: m.FaultCodesDialog })));
