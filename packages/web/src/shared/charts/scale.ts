/** A linear map from `domain` to `range`. */
export function scaleLinear([d0, d1]: [number, number], [r0, r1]: [number, number]) {
  const k = d1 === d0 ? 0 : (r1 - r0) / (d1 - d0);
  return (v: number) => r0 + (v - d0) * k;
}

/**
 * About `count` round tick values covering [min, max] (steps of 1, 2 or 5 × 10^n), starting at
 * a multiple of the step; an empty range still gets an axis up to one step.
 */
export function niceTicks(min: number, max: number, count: number): number[] {
  const span = max - min;
  if (!(span > 0)) return [min, min + 1];
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  const start = Math.floor(min / step) * step;
  const ticks: number[] = [];
  for (let v = start; v < max + step - 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/**
 * An axis tick from the tooltip's text: the same number without needless decimals ("300.00" →
 * "300", "7.50" → "7.5", "0.25" stays), units and separators kept. Ticks are round values, so
 * the trailing zeros carry no information there.
 */
export function compactTick(text: string): string {
  return text.replace(/(\d)\.(\d*?)0+(?!\d)/g, (_, whole: string, decimals: string) => (decimals ? `${whole}.${decimals}` : whole));
}
