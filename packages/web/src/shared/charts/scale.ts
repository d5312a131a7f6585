/**
 * An axis tick from the tooltip's text: the same number without needless decimals ("300.00" →
 * "300", "7.50" → "7.5", "0.25" stays), units and separators kept. Ticks are round values, so
 * the trailing zeros carry no information there.
 */
export function compactTick(text: string): string {
  return text.replace(/(\d)\.(\d*?)0+(?!\d)/g, (_, whole: string, decimals: string) => (decimals ? `${whole}.${decimals}` : whole));
}
