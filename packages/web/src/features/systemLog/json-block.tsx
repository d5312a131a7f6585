/** A request body as indented JSON; text that is not an object shows as it is. */
export function prettyJson(value: unknown): string {
  if (value === null || value === undefined || value === '') return '';
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2);
}

export function JsonBlock({ value }: { value: unknown }) {
  const text = prettyJson(value);
  if (!text) return null;
  return (
    <pre
      data-testid="log-request"
      style={{ margin: 0, maxHeight: 360, overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all', fontSize: 12 }}
    >
      {text}
    </pre>
  );
}
