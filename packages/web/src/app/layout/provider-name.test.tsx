import { describe, expect, it } from 'vitest';
import { formatProviderName } from './provider-name';

describe('sidebar provider name', () => {
  it('spaces out names of 2 to 4 characters', () => {
    expect(formatProviderName('国网')).toBe('国 网');
    expect(formatProviderName('星星充电')).toBe('星 星 充 电');
    expect(formatProviderName('ABB')).toBe('A B B');
  });

  it('cuts longer names to 7 characters and leaves 5 to 7 alone', () => {
    expect(formatProviderName('特来电新能源')).toBe('特来电新能源');
    expect(formatProviderName('Charge Network Ltd')).toBe('Charge');
    expect(formatProviderName('充电运营管理平台')).toBe('充电运营管理平');
  });

  it('leaves a single character as it is', () => {
    expect(formatProviderName('X')).toBe('X');
  });
});
