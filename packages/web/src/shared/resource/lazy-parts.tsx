import { lazy, Suspense, useState, type ReactNode } from 'react';

// A list screen opens with its search bar and table; the form dialog (with every kind of input,
// uploads included), the detail drawer, the prompt and the export-columns dialog are fetched when
// first opened (issue 14 item 7).
export const FormDialog = lazy(() => import('./FormDialog').then((m) => ({ default: m.FormDialog })));
export const DetailDrawer = lazy(() => import('./DetailDrawer').then((m) => ({ default: m.DetailDrawer })));
export const PromptDialog = lazy(() => import('./PromptDialog').then((m) => ({ default: m.PromptDialog })));
export const ExportColumnsDialog = lazy(() => import('./ExportColumnsDialog').then((m) => ({ default: m.ExportColumnsDialog })));

/** Renders its children from the first time `open` is true on, so that a dialog keeps its closing animation. */
export function OnceOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [used, setUsed] = useState(open);
  if (open && !used) setUsed(true);
  return used || open ? <Suspense fallback={null}>{children}</Suspense> : null;
}
