/** A payload as indented JSON. */
export function JsonView({ value, testId }: { value: unknown; testId?: string }) {
  if (value === null || value === undefined) return null;
  return (
    <pre
      data-testid={testId}
      style={{ margin: 0, maxHeight: 360, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 12 }}
    >
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}
