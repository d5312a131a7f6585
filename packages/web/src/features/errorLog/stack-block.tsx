/** A stack trace as the browser wrote it: monospace, wrapped, scrollable. */
export function StackBlock({ value }: { value: unknown }) {
  if (typeof value !== 'string' || !value) return null;
  return (
    <pre data-testid="error-stack" style={{ margin: 0, maxHeight: 360, overflow: 'auto', whiteSpace: 'pre-wrap', fontSize: 12 }}>
      {value}
    </pre>
  );
}
