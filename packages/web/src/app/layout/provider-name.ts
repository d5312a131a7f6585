/** Sidebar name rule: 2 to 4 characters are spaced out, longer names are cut to 7 characters. */
export function formatProviderName(name: string): string {
  const chars = [...name.trim()];
  if (chars.length >= 2 && chars.length <= 4) return chars.join(' ');
  return chars.slice(0, 7).join('').trimEnd();
}
