import { lazy } from 'react';

// The page opens with its lists; the rules' dialog (the form kit) is fetched when first opened.
export const RulesDialog = lazy(() => import('./rules-dialog').then((m) => ({ default: m.RulesDialog })));
