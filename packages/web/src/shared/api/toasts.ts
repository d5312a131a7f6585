type Content = string | { content: string; duration?: number };

interface ToastSink {
  error(content: Content): unknown;
  warning(content: Content): unknown;
}

let sink: (() => ToastSink) | undefined;

/** Called by shared/feedback.ts when it loads: from then on the console's toasts show at once. */
export function setToastSink(get: () => ToastSink) {
  sink = get;
}

function show(kind: keyof ToastSink, content: Content) {
  if (sink) void sink()[kind](content);
  // Not loaded yet (a page drawn without antd): fetch antd's toasts first.
  else void import('../feedback').then(() => sink?.()[kind](content));
}

/**
 * The API client's toasts, without a static import of antd: the client is in the entry chunk,
 * which the sign-in page loads alone (issue 14 item 7).
 */
export const toasts = {
  error: (content: Content) => show('error', content),
  warning: (content: Content) => show('warning', content),
};
