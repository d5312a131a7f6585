import { describe, expect, it } from 'vitest';
import { formatDuration, formatKw, formatKwh, formatMoney, formatPercent, formatUnitPrice, kwhToWh, unitsToCents } from './units';

describe('unit formatters', () => {
  it('turn stored units into what people read', () => {
    expect(formatMoney(72400)).toBe('724.00');
    expect(formatMoney(5)).toBe('0.05');
    expect(formatMoney(-1234)).toBe('-12.34');
    expect(formatKwh(7000)).toBe('7.000');
    expect(formatKwh(12345)).toBe('12.345');
    expect(formatKw(7400)).toBe('7.40');
    expect(formatUnitPrice(12345)).toBe('1.2345');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(59.6)).toBe('0:01:00');
    expect(formatPercent(0.09375)).toBe('9.4');
  });

  it('turn typed amounts back into stored units without float noise', () => {
    expect(unitsToCents(0.1 + 0.2)).toBe(30);
    expect(unitsToCents(12.34)).toBe(1234);
    expect(kwhToWh(1.0005)).toBe(1001);
    expect(kwhToWh(150.5)).toBe(150_500);
  });

  it('leave missing values empty', () => {
    for (const f of [formatMoney, formatKwh, formatKw, formatUnitPrice, formatDuration, formatPercent]) {
      expect(f(null)).toBe('');
      expect(f(undefined)).toBe('');
      expect(f(Number.NaN)).toBe('');
    }
  });
});
