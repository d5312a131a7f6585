import { lazy } from 'react';

// The page opens with its lists; the upload dialog (the upload widget, the form kit) and an
// upgrade's points are fetched when first opened, as the kit's own dialogs are (issue 14 item 7).
export const UploadDialog = lazy(() => import('./upload-dialog').then((m) => ({ default: m.UploadDialog })));
export const UpgradePointsDrawer = lazy(() => import('./upgrade-points').then((m) => ({ default: m.UpgradePointsDrawer })));
